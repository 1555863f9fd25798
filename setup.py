"""Package discovery for the ``club_agentes`` namespace (everything else is in pyproject.toml).

The repository keeps its top-level folders (``engine/``, ``rules_corpus/``, ``quizzes/``,
``mcp_server/``); installed, each is a subpackage of ``club_agentes``. setuptools needs every
package listed with its folder, so they are discovered here instead of kept by hand.
"""

from setuptools import find_namespace_packages, setup

SUBPACKAGES = ("engine", "rules_corpus", "quizzes", "mcp_server")

packages = ["club_agentes"]
package_dir = {"club_agentes": "club_agentes"}
for folder in SUBPACKAGES:
    subs = find_namespace_packages(folder, exclude=["*__pycache__*"])
    for name in [folder, *(f"{folder}.{sub}" for sub in subs)]:
        packages.append(f"club_agentes.{name}")
        package_dir[f"club_agentes.{name}"] = name.replace(".", "/")

setup(packages=packages, package_dir=package_dir)
