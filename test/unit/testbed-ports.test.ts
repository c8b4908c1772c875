import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';

const LIB = path.resolve(__dirname, '..', '..', 'scripts', 'testbed', 'lib.sh');
/** Where Linux's ephemeral range starts by default (net.ipv4.ip_local_port_range 32768 60999). */
const EPHEMERAL_FROM = 32_768;

function testbed(script: string, env: NodeJS.ProcessEnv = {}) {
  const run = spawnSync('bash', ['-c', `. "${LIB}"; ${script}`], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
  });
  assert.equal(run.status, 0, run.stderr);
  return run;
}

test("the testbed's ports lie below the ephemeral range, each its own", () => {
  const listed = testbed('for n in $(tb_port_names); do echo "$n ${!n}"; done').stdout.trim().split('\n');
  const ports = new Map(listed.map((line) => line.split(' ') as [string, string]));
  assert.ok(ports.size >= 20, `every service's ports are listed: ${[...ports.keys()].join(', ')}`);
  for (const [name, port] of ports)
    assert.ok(
      Number(port) > 1024 && Number(port) < EPHEMERAL_FROM,
      `${name} ${port}: an outgoing connection can hold it`,
    );
  assert.equal(new Set(ports.values()).size, ports.size, `no port twice: ${listed.join(', ')}`);
});

test('a port moved into the ephemeral range is named at start-up', () => {
  const run = testbed('warn_ephemeral_ports', { DBPROBE_TESTBED_PG_PORT: '55432' });
  // Only where the machine says what its range is (Linux).
  const range = spawnSync('cat', ['/proc/sys/net/ipv4/ip_local_port_range'], { encoding: 'utf8' });
  if (range.status !== 0) return;
  const [low = 0, high = 0] = range.stdout.trim().split(/\s+/).map(Number);
  if (55_432 < low || 55_432 > high) return;
  assert.match(run.stderr, /warning: PG_PORT 55432 is inside this machine's ephemeral port range/);
  assert.doesNotMatch(run.stderr, /MYSQL_PORT/);
});
