// Material's search worker on a lab page, building its index once the lab has started.
// Material starts its search worker on every page load and at once builds the site's index (about
// 0.3 s of CPU). On a lab page that competes, on a two-core machine, with the Python worker and
// the page for the lab's first second. So a lab page (build_scripts/hooks.py) names this script as
// its search worker: it runs Material's own worker unchanged, but holds the page's messages (the
// index, then any query) until the lab page says it is ready or has failed (BroadcastChannel
// "mlsys-search"), until the student reaches for the search box, or for at most HOLD_MS.
// Material's worker is named by the `material` parameter: a file beside it in its own folder.

const HOLD_MS = 10000;
const CHANNEL = "mlsys-search";

const held = [];
let holding = true;

/** Hand every held message to Material's worker, in order, and stop holding. */
function release() {
  if (!holding) return;
  holding = false;
  channel?.close();
  for (const data of held.splice(0)) self.dispatchEvent(new MessageEvent("message", { data }));
}

// Registered before Material's listener, so it sees each message first.
self.addEventListener("message", (event) => {
  if (!holding) return;
  event.stopImmediatePropagation();
  held.push(event.data);
});

const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
if (channel) channel.onmessage = release;
setTimeout(release, channel ? HOLD_MS : 0);

const material = new URL(self.location.href).searchParams.get("material") || "";
if (!/^search\.[0-9a-f]+\.min\.js$/.test(material)) throw new Error(`pylabs: not Material's search worker: ${material}`);
importScripts(new URL(`../../javascripts/workers/${material}`, self.location.href).href);
