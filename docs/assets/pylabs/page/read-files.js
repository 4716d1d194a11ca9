// Reading an instructor's files into the class view's worker, in order, without the worker waiting
// for the page between files and without the page holding hundreds of files in memory at once.

const MAX_FILE_BYTES = 5_000_000;  // as pylabs.course.classroom.MAX_FILE_BYTES: larger files are not read
const READ_AHEAD = 4;  // files being read while the worker validates the ones before
const IN_FLIGHT = 4;   // files sent to the worker before the first of them is answered

/**
 * Read files and send each one's bytes, in the order given. A few files are sent before the
 * worker answers the first, so it never waits for the page between files (it answers in the order
 * sent). Only a few files are read ahead: starting 500 reads at once is itself a main-thread task
 * of several hundred milliseconds (found in review). A file over the limit is not read, and one the
 * browser cannot read is sent as empty (Python refuses the one by its size and the other as not
 * JSON, each under its own name). When a send fails (the worker stopped), nothing more is sent:
 * the sends already made are waited for, each file answered is passed to `onRead`, and the first
 * failure is thrown, so the page's list of files is what Python holds.
 * @param {File[]} files
 * @param {(file: File, bytes: ArrayBuffer|string) => Promise<unknown>} send hands one file to Python
 * @param {{onProgress?: (n: number) => void, onRead?: (file: File) => void}} [hooks] every 25 files
 *   answered; each file Python has read
 * @returns {Promise<number>} how many were read
 */
export async function readFiles(files, send, { onProgress = () => {}, onRead = () => {} } = {}) {
  const start = (file) => (file.size > MAX_FILE_BYTES ? Promise.resolve("") : file.arrayBuffer().catch(() => ""));
  const reading = files.slice(0, READ_AHEAD).map(start);
  const sent = [];  // [file, its answer], in the order sent
  let failure = null;
  let done = 0;
  const answered = async () => {
    const [file, answer] = sent.shift();
    try {
      await answer;
      onRead(file);
    } catch (error) {
      failure ??= error;
    }
    done += 1;
    if (done % 25 === 0) onProgress(done);
  };
  for (let i = 0; i < files.length && !failure; i += 1) {
    const bytes = await reading[i];
    reading[i] = null;
    if (i + READ_AHEAD < files.length) reading.push(start(files[i + READ_AHEAD]));
    const answer = Promise.resolve(send(files[i], bytes));
    // Waited for in order below; a failure answered meanwhile stops the sending at once (and is not
    // left unhandled).
    answer.catch((error) => { failure ??= error; });
    sent.push([files[i], answer]);
    if (sent.length >= IN_FLIGHT) await answered();
  }
  while (sent.length) await answered();
  if (failure) throw failure;
  return files.length;
}
