"""Serve the built site locally, optionally under a sub-path like GitHub Pages does.

    python -m tools.serve [--port 0] [--prefix /labs/] [site_dir]

Port 0 (the default) asks the OS for a free port; the URL is printed. The
server binds to 127.0.0.1 only and sends the MIME types Pyodide needs.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIME = {".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
        ".json": "application/json", ".whl": "application/zip", ".zip": "application/zip"}


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files from ``directory``, mounted at ``prefix`` (everything else is 404)."""

    prefix = "/"
    served: dict[str, list[int]] | None = None  # when given: the status codes answered per path (query left out)
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_prefix__")
        return super().translate_path("/" + path[len(self.prefix):])

    def do_GET(self) -> None:
        if self.path.split("?")[0] == self.prefix + "sitemap.xml":
            self.send_sitemap()
            return
        if self.path.rstrip("/") + "/" == self.prefix and not self.path.endswith("/"):
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return
        super().do_GET()

    def send_sitemap(self) -> None:
        """The sitemap with the build's site_url replaced by this server's address, as if the
        site were deployed here (Material's instant navigation follows only listed pages)."""
        site = Path(self.directory)
        body = (site / "sitemap.xml").read_text()
        runtime = json.loads((site / "assets" / "pylabs" / "runtime.json").read_text())
        host = self.headers.get("Host", "{}:{}".format(*self.server.server_address[:2]))
        body = body.replace(runtime["site_url"], f"http://{host}{self.prefix}").encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        # as for every other file (and as a static host sends it): the browser may keep it
        self.send_header("Last-Modified", self.date_time_string(int((site / "sitemap.xml").stat().st_mtime)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        pass

    def log_request(self, code="-", size="-") -> None:
        if self.served is not None:
            self.served.setdefault(self.path.split("?")[0], []).append(int(code) if str(code).isdigit() else 0)


class SiteServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        """A browser that stops a download it no longer wants (a page left, the snapshot dropped on
        a slow link) is not an error of the server: only anything else is printed."""
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def make_server(site_dir: Path, port: int = 0, prefix: str = "/",
                served: dict[str, list[int]] | None = None) -> http.server.ThreadingHTTPServer:
    """``served``, when given, collects the status codes answered per path (tests and the bench
    count what a visit downloads)."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    handler = functools.partial(type("Handler", (SiteHandler,), {"prefix": prefix, "served": served}),
                                directory=str(site_dir))
    server = SiteServer(("127.0.0.1", port), handler)
    server.prefix = prefix
    return server


def serve_in_thread(site_dir: Path, prefix: str = "/",
                    served: dict[str, list[int]] | None = None) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a server on a free port in a daemon thread; return it and its base URL."""
    server = make_server(site_dir, 0, prefix, served)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}{server.prefix}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site_dir", nargs="?", default=str(ROOT / "site"))
    parser.add_argument("--port", type=int, default=0, help="Default: 0, a free port")
    parser.add_argument("--prefix", default="/", help="Default: /. Use /labs/ to mimic GitHub Pages")
    args = parser.parse_args()
    server = make_server(Path(args.site_dir), args.port, args.prefix)
    host, port = server.server_address[:2]
    print(f"Serving {args.site_dir} at http://{host}:{port}{server.prefix}  (Ctrl+C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
