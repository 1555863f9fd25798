"""The MCP adapter of Club de Agentes: tools, resources, prompts, tables, storage and CLI."""
