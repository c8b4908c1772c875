/**
 * Prometheus's own checker, from Debian's prometheus package (scripts/testbed/up.sh installs it):
 * runs `promtool ARGS`, with `input` on its standard input when given, bounded in time.
 */
import { spawn } from 'node:child_process';

export const PROMTOOL = '/usr/bin/promtool';

export function promtool(args: string[], input?: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PROMTOOL, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
    child.stdin?.end(input);
  });
}
