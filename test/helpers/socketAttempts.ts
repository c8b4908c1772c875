/**
 * Counts every outgoing socket this process starts (Node publishes `net.client.socket` when
 * net.connect/tls.connect creates one), so a test can prove a request was refused before anything
 * was sent, whatever host it was aimed at, without sending anything to that host.
 */
import * as diagnostics from 'node:diagnostics_channel';

export interface SocketAttempts {
  count(): number;
  stop(): void;
}

export function countSocketAttempts(): SocketAttempts {
  let attempts = 0;
  const onSocket = () => {
    attempts++;
  };
  diagnostics.subscribe('net.client.socket', onSocket);
  return {
    count: () => attempts,
    stop: () => diagnostics.unsubscribe('net.client.socket', onSocket),
  };
}
