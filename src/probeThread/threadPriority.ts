/**
 * Lets a CPU-bound run give way to the editor. An embedded database (libSQL `file:`) answers without
 * I/O, so its probe thread keeps a core busy for the whole run; at normal priority it competes with
 * the editor's own threads for the CPU and typing lags (on two cores, keystrokes took 110-145 ms to
 * echo). Network probes wait on sockets and barely use the CPU: they keep normal priority, so their
 * wake-ups are as prompt as the CLI's.
 *
 * Linux only: there a thread is a task with its own nice value, set through its thread id. Elsewhere
 * os.setPriority would change the whole process, the editor's extension host, so nothing is done.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';

/** Nice 10: the editor's threads (nice 0) win any contest for a core; an idle machine runs it fully. */
export const EMBEDDED_NICE = 10;

/** Lowers this thread's priority; false where that is not possible (not Linux, not permitted). */
export function lowerThreadPriority(nice = EMBEDDED_NICE): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // "<pid>/task/<tid>": the calling thread's own entry.
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid) return false;
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** Whether a run's targets include an embedded database, whose probe is CPU-bound. */
export function runsEmbedded(urls: readonly string[]): boolean {
  return urls.some((url) => /^file:/i.test(url.trim()));
}
