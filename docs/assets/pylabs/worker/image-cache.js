// The snapshot image kept unpacked in this browser. The build serves the image gzipped
// (11 MB instead of 36 MiB); reading it from the service worker's cache and unpacking it costs a
// returning student about 0.4 s on every visit. So after a boot from the gzipped file the worker
// keeps the unpacked image in the origin private file system, and later visits read it with a
// synchronous access handle (worker only): a plain file read, some tens of milliseconds.
//
// One image per site: its file is named by the site and the image key, and keeping a new one
// deletes the site's older ones. A file of the wrong size (a write cut short) is deleted, never
// used; a browser without these APIs, or a file another tab is writing, means the gzipped path.

const DIRECTORY = "mlsys-images";

/** This site's prefix for file names (sites on one origin differ by path). */
function sitePrefix(base) {
  return `${encodeURIComponent(new URL(base).pathname)}.`;
}

function fileName(base, entry) {
  return `${sitePrefix(base)}${entry.key}.bin`;
}

function available() {
  return typeof navigator === "object" && Boolean(navigator.storage && navigator.storage.getDirectory) &&
    typeof FileSystemFileHandle === "function" && "createSyncAccessHandle" in FileSystemFileHandle.prototype;
}

async function directory() {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(DIRECTORY, { create: true });
}

/**
 * The kept image for this snapshot entry, or null (none kept, no such API, or unusable).
 * @param {URL} base the site root
 * @param {{key: string, memory: number}} entry runtime.json's snapshot entry
 * @returns {Promise<{image: Promise<Uint8Array>}|null>}
 */
export async function keptImage(base, entry) {
  if (!available()) return null;
  let handle = null;
  try {
    const folder = await directory();
    const file = await folder.getFileHandle(fileName(base, entry));
    // read-only: tabs opened together can all read it (the option is ignored where unknown)
    handle = await file.createSyncAccessHandle({ mode: "read-only" });
    const size = handle.getSize();
    if (size !== entry.memory) {
      handle.close();
      handle = null;
      await folder.removeEntry(fileName(base, entry));
      return null;
    }
    const image = new Uint8Array(size);
    if (handle.read(image, { at: 0 }) !== size) return null;
    return { image: Promise.resolve(image) };
  } catch (error) {
    if (error.name !== "NotFoundError") console.info(`pylabs: the kept Python image is not used (${error.message})`);
    return null;
  } finally {
    handle?.close();
  }
}

/**
 * Keep this image for the next visit, and delete this site's older ones. Never throws: a full
 * disk or a private window only means the next visit unpacks the gzipped image again.
 * @param {URL} base the site root
 * @param {{key: string, memory: number}} entry runtime.json's snapshot entry
 * @param {Uint8Array} image the unpacked image (entry.memory bytes)
 */
export async function keepImage(base, entry, image) {
  if (!available() || image.length !== entry.memory) return;
  let handle = null;
  try {
    const folder = await directory();
    const name = fileName(base, entry);
    // Written in place: a write cut short leaves a file of the wrong size, which is never used, and
    // while it is written its handle keeps other tabs from reading it.
    handle = await (await folder.getFileHandle(name, { create: true })).createSyncAccessHandle();
    handle.truncate(0);
    let written = 0;
    while (written < image.length) written += handle.write(image.subarray(written), { at: written });
    handle.flush();
    const prefix = sitePrefix(base);
    for await (const other of folder.keys()) {
      if (other.startsWith(prefix) && other !== name) await folder.removeEntry(other).catch(() => {});
    }
  } catch (error) {
    console.info(`pylabs: the Python image is not kept for the next visit (${error.message})`);
  } finally {
    handle?.close();
  }
}

/** Forget this snapshot's kept image (it failed to restore). */
export async function dropImage(base, entry) {
  if (!available()) return;
  try {
    await (await directory()).removeEntry(fileName(base, entry));
  } catch {
    // nothing kept, nothing to do
  }
}
