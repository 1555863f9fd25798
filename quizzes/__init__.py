"""Club entry: question bank, riddles, Spanish-aware grading and the signed club pass."""
