/**
 * A lock across processes for synchronous test helpers: a directory made with mkdir (atomic), the
 * holder's pid inside. A holder that exited (killed test, crash) is detected and its lock taken over.
 * It sleeps between looks with Atomics.wait, as its callers cannot await.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const LOOK_EVERY_MS = 200;
/** A lock without a pid this long after it was made was left by a holder that died in between. */
const NO_PID_GRACE_MS = 10_000;

function holderGone(lock: string): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EPERM') return false;
    if (code === 'ENOENT') {
      const made = fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      return made === undefined || Date.now() - made > NO_PID_GRACE_MS;
    }
    return true;
  }
}

/** Runs `body` holding the lock at `lock`; waits at most `waitMs` for another holder. */
export function withDirLock<T>(lock: string, waitMs: number, body: () => T): T {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + waitMs;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (holderGone(lock)) fs.rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`${lock} was held for over ${waitMs / 1000} s`);
    else Atomics.wait(nap, 0, 0, LOOK_EVERY_MS);
  }
  try {
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
