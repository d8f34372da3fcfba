"""Re-take docs/img/browser-supersedes.png: Neo4j Browser showing a supersedes chain.

Not part of CI. It starts a local Neo4j (auth off, free ports, temporary data),
writes the quickstart conversation with graphmem's Neo4jStore, then drives
Neo4j Browser in headless Chromium (``browser_screenshot.mjs``, with
playwright-core from npm) to run the query and capture the graph view.

Needs Debian's ``chromium`` (``apt-get install -y chromium``), Node.js with npm,
and the local Neo4j's jars (``graphmem neo4j install``)::

    .venv/bin/python docs/tools/browser_screenshot.py
    .venv/bin/python docs/tools/browser_screenshot.py --out /tmp/shot.png
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
QUERY = "MATCH path = (:Fact)-[:SUPERSEDES*]->(:Fact) RETURN path"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "img" / "browser-supersedes.png")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--playwright-dir", type=Path, default=None,
                        help="the playwright-core package folder (default: npm-install it "
                             "into a temporary folder)")
    args = parser.parse_args()

    sys.path.insert(0, str(REPO / "notebooks"))
    import _shared as demo

    scratch = None if args.playwright_dir else Path(tempfile.mkdtemp(prefix="graphmem-playwright-"))
    try:
        playwright_dir = args.playwright_dir or _install_playwright_core(scratch)
        _screenshot(demo, args.out, args.chromium, playwright_dir)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"wrote {args.out}")
    return 0


def _screenshot(demo: Any, out: Path, chromium: str, playwright_dir: Path) -> None:
    from graphmem.store.neo4j import Neo4jStore

    with demo.local_neo4j() as server:
        memory = demo.build_memory(Neo4jStore(server.uri, server.user, server.password,
                                              embedding_dim=384)).open()
        try:
            for episode in demo.episodes():
                memory.add_episode(demo.TENANT, episode)
        finally:
            memory.close()
        out.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PLAYWRIGHT_CORE_DIR": str(playwright_dir), "CHROMIUM": chromium}
        subprocess.run(["node", str(HERE / "browser_screenshot.mjs"), str(server.browser_url),
                        server.uri, str(out), QUERY], check=True, env=env)


def _install_playwright_core(folder: Path) -> Path:
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix",
                    str(folder), "playwright-core"], check=True)
    return folder / "node_modules" / "playwright-core"


if __name__ == "__main__":
    raise SystemExit(main())
