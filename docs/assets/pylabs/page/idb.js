// One IndexedDB object store used as a key-value map (the view cache, a kept class).

/**
 * A key-value store in its own database, opened on first use.
 * @param {string} dbName the database name (scoped by the site's base path by the caller)
 * @param {string} storeName its one object store
 * @returns {{get: (key: string) => Promise<any>, put: (key: string, value: any) => Promise<void>, remove: (key: string) => Promise<void>}}
 */
export function keyValueStore(dbName, storeName) {
  let opening = null;
  const open = () => {
    if (!opening) {
      opening = new Promise((resolve, reject) => {
        if (typeof indexedDB === "undefined") {
          reject(new Error("no IndexedDB"));
          return;
        }
        const request = indexedDB.open(dbName, 1);
        request.onupgradeneeded = () => request.result.createObjectStore(storeName);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
        request.onblocked = () => reject(new Error("IndexedDB is blocked"));
      });
      opening.catch(() => {});
    }
    return opening;
  };
  const transact = async (mode, run) => {
    const db = await open();
    return new Promise((resolve, reject) => {
      const tx = db.transaction(storeName, mode);
      const request = run(tx.objectStore(storeName));
      tx.oncomplete = () => resolve(request.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  };
  return {
    get: (key) => transact("readonly", (store) => store.get(key)),
    put: (key, value) => transact("readwrite", (store) => store.put(value, key)).then(() => {}),
    remove: (key) => transact("readwrite", (store) => store.delete(key)).then(() => {}),
  };
}
