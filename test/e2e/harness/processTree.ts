// Killing a whole process tree on Linux. code-server forks its server, the extension host, the pty host
// and file watchers; terminals started through node-pty call setsid() and leave the process group, so
// killing the group alone can leave orphans holding ports and temp folders. We therefore collect every
// descendant from /proc before signalling, and signal the group as well (cheap, catches races).
import { type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';

function childrenByParent(): Map<number, number[]> {
  const map = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we were reading
    }
    // Field 4 is the parent pid; field 2 (comm) may contain spaces, so parse after its closing ')'.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const pid = Number(entry);
    const siblings = map.get(ppid);
    if (siblings) siblings.push(pid);
    else map.set(ppid, [pid]);
  }
  return map;
}

/** The pid itself and all its descendants, parents first. */
export function processTree(rootPid: number): number[] {
  const children = childrenByParent();
  const out: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.shift() as number;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function signalAll(pids: number[], pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // group already gone
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

// A zombie (state Z) counts as gone: in a container the reaper of orphans may never collect it.
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/**
 * SIGTERM to the tree (code-server shuts down cleanly on it), then SIGKILL to whatever is left after
 * graceMs. `child` must have been spawned with `detached: true` so that its pid is also its group id.
 */
export async function killTree(child: ChildProcess, graceMs = 5000): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  const pids = processTree(pid);
  signalAll(pids, pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(alive)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  // Pick up anything forked during shutdown too.
  const left = [...new Set([...pids, ...processTree(pid)])].filter(alive);
  if (left.length > 0) signalAll(left, pid, 'SIGKILL');
}

/** Synchronous last resort for process.on('exit'): no waiting possible there. */
export function killTreeNow(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null) return;
  signalAll(processTree(pid), pid, 'SIGKILL');
}
