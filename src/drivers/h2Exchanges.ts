/**
 * The turns of an HTTP/2 session, for the wire watch (core/wireWatch.ts). Node's HTTP/2 session
 * reads and writes its TLS socket in native code, so no JS runs per chunk; undici does call the
 * request's handler when the request goes out (`onConnect`, just before the stream is opened and
 * its frames written) and when the response's headers arrive (`onResponseStarted`). This wraps each
 * request's handler to report both for the session's live HTTP/2 socket. HTTP/1.1 sockets are not
 * reported: their reads and writes run in JS, where the watch counts them itself.
 */
import type { Socket } from 'node:net';
import { DecoratorHandler, type Dispatcher } from 'undici';
import type { PhaseReporter } from '../core/socketPhases';

/** The session's socket speaking HTTP/2 now, if any (one connection per session). */
export type LiveH2Socket = () => Socket | undefined;

/** undici's DecoratorHandler forwards every handler method; its published type declares none. */
type Handlers = Dispatcher.DispatchHandlers;
interface Forwarding extends Handlers {
  onConnect(abort: (err?: Error) => void): void;
  onResponseStarted(): void;
}
const ForwardingHandler = DecoratorHandler as unknown as new (handler: Handlers) => Forwarding;

class ExchangeHandler extends ForwardingHandler {
  private socket: Socket | undefined;

  constructor(
    handler: Handlers,
    private readonly live: LiveH2Socket,
    private readonly phases: PhaseReporter,
  ) {
    super(handler);
  }

  override onConnect(abort: (err?: Error) => void): void {
    this.socket = this.live();
    if (this.socket) this.phases.exchange(this.socket, 'sent');
    super.onConnect(abort);
  }

  override onResponseStarted(): void {
    if (this.socket) this.phases.exchange(this.socket, 'answered');
    super.onResponseStarted();
  }
}

/** An interceptor for `Agent.compose`: reports each request's exchange on an HTTP/2 socket. */
export function reportH2Exchanges(
  live: LiveH2Socket,
  phases: PhaseReporter,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => dispatch(options, new ExchangeHandler(handler, live, phases));
}
