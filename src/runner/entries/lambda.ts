/**
 * AWS Lambda behind a function URL with response streaming (InvokeMode RESPONSE_STREAM), so progress
 * events flow while the run goes on. Handler: `index.handler`. Env: DBPROBE_TOKEN and the targets'
 * connection strings; region: AWS_REGION (set by Lambda).
 */
import type { Writable } from 'node:stream';
import { createRegistry } from '../../drivers/registry';
import { configFromEnv } from '../runnerConfig';
import { createRunnerHandler, type FetchHandler } from '../handler';

/** The parts of a function URL event (payload format 2.0) the runner reads. */
export interface FunctionUrlEvent {
  rawPath: string;
  rawQueryString?: string;
  headers?: Record<string, string | undefined>;
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { http: { method: string }; domainName?: string };
}

interface AwsLambdaGlobal {
  streamifyResponse(fn: (event: FunctionUrlEvent, stream: Writable) => Promise<void>): unknown;
  HttpResponseStream: {
    from(stream: Writable, meta: { statusCode: number; headers: Record<string, string> }): Writable;
  };
}

declare const awslambda: AwsLambdaGlobal | undefined;

let runnerHandler: FetchHandler | undefined;
function getHandler(): FetchHandler {
  runnerHandler ??= createRunnerHandler({
    config: configFromEnv(process.env, 'aws-lambda'),
    registry: createRegistry(),
  });
  return runnerHandler;
}

export function requestFromEvent(event: FunctionUrlEvent, signal?: AbortSignal): Request {
  const host = event.requestContext.domainName ?? 'lambda.local';
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const method = event.requestContext.http.method;
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {}))
    if (value !== undefined) headers.set(name, value);
  const body =
    event.body === undefined
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64')
        : event.body;
  return new Request(`https://${host}${event.rawPath}${query}`, {
    method,
    headers,
    ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    signal,
  });
}

/** The Web-standard core: a function URL event in, a Response out. */
export function handleEvent(event: FunctionUrlEvent, signal?: AbortSignal): Promise<Response> {
  return getHandler()(requestFromEvent(event, signal));
}

/** Streams a Response into Lambda's response stream; a closed stream (client gone) cancels the run. */
export async function streamResponse(
  event: FunctionUrlEvent,
  responseStream: Writable,
  from: AwsLambdaGlobal['HttpResponseStream']['from'],
): Promise<void> {
  const cancel = new AbortController();
  responseStream.on('close', () => cancel.abort());
  const response = await handleEvent(event, cancel.signal);
  const out = from(responseStream, {
    statusCode: response.status,
    headers: Object.fromEntries(response.headers),
  });
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || cancel.signal.aborted) break;
      if (!out.write(value)) await new Promise((resolve) => out.once('drain', resolve));
    }
  }
  out.end();
}

export const handler =
  typeof awslambda !== 'undefined'
    ? awslambda.streamifyResponse((event, stream) =>
        streamResponse(event, stream, (s, meta) => awslambda!.HttpResponseStream.from(s, meta)),
      )
    : undefined;
