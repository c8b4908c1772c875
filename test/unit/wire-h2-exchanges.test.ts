/**
 * An HTTP/2 session reads and writes its TLS socket in native code, so the wire watch sees none of
 * its chunks; the HTTP session reports each request and answer instead (src/drivers/h2Exchanges.ts).
 * On a fake TLS socket whose native counters move without any JS read: the TLS 1.3 handshake is one
 * turn (its keylog), each reported request/answer pair one more; with nothing reported the count is
 * withheld with its reason, never short.
 */
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { test } from 'node:test';
import { noteExchange, WireWatch } from '../../src/core/wireWatch';

/** A tls.connect() socket as the watch reads it: the TCP handle's counters under its TLS handle. */
class NativeTlsSocket extends EventEmitter {
  readonly encrypted = true;
  readonly alpnProtocol = 'h2';
  readonly tcp = { bytesWritten: 0, bytesRead: 0 };
  readonly _handle = { _parent: this.tcp };
  push(): boolean {
    return true;
  }
  getProtocol(): string {
    return 'TLSv1.3';
  }
  getCipher(): { name: string } {
    return { name: 'TLS_AES_128_GCM_SHA256' };
  }
  asSocket(): Socket {
    return this as unknown as Socket;
  }
}

/** TCP connect, ClientHello, the server's flight (one keylog line), secure: one TLS 1.3 turn. */
function handshake(socket: NativeTlsSocket): void {
  socket.tcp.bytesWritten += 300; // the ClientHello, written on `connect`
  socket.emit('connect');
  socket.tcp.bytesRead += 2_000; // ServerHello .. Finished
  socket.emit('keylog');
  socket.tcp.bytesWritten += 80; // the client's Finished
  socket.emit('secureConnect');
}

/** A request and its answer, moved by native code; `report` says whether the session reports them. */
function exchange(socket: NativeTlsSocket, report: boolean): void {
  if (report) noteExchange(socket, 'sent');
  socket.tcp.bytesWritten += 120;
  socket.tcp.bytesRead += 400;
  if (report) noteExchange(socket, 'answered');
}

test('an HTTP/2 initial sample: the handshake turn plus one per reported request', () => {
  const watch = new WireWatch();
  const socket = new NativeTlsSocket();
  watch.socket(socket.asSocket());
  handshake(socket);
  exchange(socket, true);
  const counted = watch.snapshot();
  assert.equal(counted.roundTrips, 2);
  assert.equal(counted.tcpHandshakes, 1);
  assert.equal(counted.bytesSent, 500);
  assert.equal(counted.bytesReceived, 2_400);
  assert.equal(watch.roundTripsUnseen(), undefined);
  assert.deepEqual(watch.tlsFigures(), {
    tlsVersion: 'TLSv1.3',
    tlsCipher: 'TLS_AES_128_GCM_SHA256',
    alpn: 'h2',
  });
});

test('a warm HTTP/2 connection: one turn per reported query, counted after settle', () => {
  const watch = new WireWatch();
  const socket = new NativeTlsSocket();
  watch.socket(socket.asSocket());
  handshake(socket);
  exchange(socket, true);
  for (let query = 0; query < 3; query++) {
    const before = { ...watch.settle() };
    exchange(socket, true);
    const after = watch.snapshot();
    assert.equal(after.roundTrips - before.roundTrips, 1, `query ${query}`);
    assert.equal(after.bytesSent - before.bytesSent, 120);
  }
});

test('native reads with nothing reported: the count is withheld, with why', () => {
  const watch = new WireWatch();
  const socket = new NativeTlsSocket();
  watch.socket(socket.asSocket());
  handshake(socket);
  exchange(socket, false);
  // As a sample asks: after the snapshot that ends its window (the answer reads no counter itself).
  watch.snapshot();
  assert.match(watch.roundTripsUnseen() ?? '', /read in native code .* reported no request/);
});

test('a report for a socket no sample watches goes nowhere', () => {
  const stray = new NativeTlsSocket();
  assert.doesNotThrow(() => noteExchange(stray, 'sent'));
  const watch = new WireWatch();
  const socket = new NativeTlsSocket();
  watch.socket(socket.asSocket());
  handshake(socket);
  noteExchange(stray, 'answered');
  assert.equal(watch.snapshot().roundTrips, 1, 'only the handshake');
});
