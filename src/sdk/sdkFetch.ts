import { LabError, type MessageEvent } from '../engine';
import type { SdkRace } from './sdkRace';
import type { WireMessage } from './sdkRecorder';

/** Where an SDK's HTTP client transport sends its requests: never a network, the lab's in-process fetch answers it. */
export const MCP_URL = 'http://lab.invalid/mcp';

/** The server end of Streamable HTTP: answers one HTTP request (SDK 1.x's server transport, v2's handler). */
export interface HttpServerLike {
  handleRequest(request: Request): Promise<Response>;
}

/** SSE events in one chunk of a response stream: the JSON of each `data:` line. */
function sseMessages(text: string): WireMessage[] {
  return (text.match(/^data: ?.*$/gm) ?? []).map((line) => JSON.parse(line.replace(/^data: ?/, '')) as WireMessage);
}

/**
 * The in-process `fetch` joining an SDK's HTTP client transport to its server end. `serverTapped`:
 * the server's transport is a TappedTransport that records what it sends (SDK 1.x); otherwise
 * (v2's handler, whose per-request transport is internal) the server's messages are recorded from
 * the response as its client end reads them, the instant they are written.
 */
export function labFetch(race: SdkRace, server: HttpServerLike, serverTapped: boolean): typeof fetch {
  const handle = async (request: Request): Promise<Response> => {
    race.busy += 1;
    try {
      return await server.handleRequest(request);
    } finally {
      race.busy -= 1;
    }
  };
  return async (input, init) => {
    if ((init?.method ?? 'GET') !== 'POST') return handle(new Request(input, init));
    // The SDK's transport POSTs one JSON-RPC message as a string: read as it was given, with no trip through the host's body reader.
    if (typeof init?.body !== 'string')
      throw new LabError('LAB026', 'the SDK POSTed a body that is not a string; the lab records only what it can read');
    const message = JSON.parse(init.body) as WireMessage;
    const isRequest = 'method' in message && 'id' in message;
    const requestId = isRequest ? (message.id as number | string) : null;
    const channel = isRequest
      ? `POST #${String(requestId)}`
      : `POST ${'method' in message ? String(message.method) : 'response'}`;
    // The server's end of the connection: aborted when the client's abort reaches it, one latency after.
    const connection = new AbortController();
    const request = new Request(input, { ...init, signal: connection.signal });
    let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
    let out: ReadableStreamDefaultController<Uint8Array> | null = null;
    let closedByClient = false;
    let rejectFetch: (reason: unknown) => void = () => undefined;
    const abortedFetch = new Promise<never>((_resolve, reject) => {
      rejectFetch = reject;
    });
    abortedFetch.catch(() => undefined);
    // The client's SDK aborting this POST's fetch closes the request's connection: the fetch (or its
    // body, once it has one) rejects at once, as a host's fetch does, and the server's end sees the
    // close one latency later.
    const clientSignal = init.signal;
    clientSignal?.addEventListener(
      'abort',
      () => {
        if (closedByClient) return;
        closedByClient = true;
        rejectFetch(clientSignal.reason);
        out?.error(clientSignal.reason);
        const disconnect = (): void => {
          connection.abort(clientSignal.reason);
          reader?.cancel(clientSignal.reason).catch(() => undefined);
        };
        const observedAtMs = requestId === null ? null : race.clientClosedStream(requestId);
        // After the run (closing the session), or a notification's POST: nothing is recorded and nothing waits.
        if (observedAtMs === null || requestId === null) return disconnect();
        race.at(observedAtMs, () => {
          race.serverObservedDisconnect(requestId);
          disconnect();
        });
      },
      { once: true },
    );
    const exchange = async (): Promise<Response> => {
      race.notePost(channel, request.headers);
      const event = race.put('client', channel, message);
      if (event !== null) {
        await race.until(event.arrivesAtMs);
        race.delivered(event);
      }
      let response: Response;
      if (serverTapped) {
        // Until the server's transport hands it to the Server: the busy count covers handleRequest, and the server's onmessage ends it.
        race.busy += 1;
        response = await handle(request);
        if (!(response.status >= 200 && response.status < 300)) race.busy -= 1;
      } else {
        // v2 answers a request once its first message is written (a result as JSON, or a progress
        // that opens the SSE stream), which may be virtual time later: the clock may move once the
        // server has dispatched the request to its handler, or answered.
        race.busy += 1;
        let released = false;
        const release = (): void => {
          if (released) return;
          released = true;
          race.busy -= 1;
        };
        if (requestId !== null) race.onDispatch(requestId, release);
        try {
          response = await server.handleRequest(request);
        } finally {
          release();
        }
      }
      if (!isRequest || requestId === null || response.body === null || closedByClient) return response;
      const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
      if (!isSse) {
        if (serverTapped) return response;
        // A JSON answer (v2's server/discover, or a result with no progress before it): recorded now, handed to the client's transport at its arrival.
        // The host reads a body on real tasks of its own: the clock waits for it.
        race.busy += 1;
        let text: string;
        try {
          text = await response.text();
        } finally {
          race.busy -= 1;
        }
        const answer = race.put('server', `JSON #${String(requestId)}`, JSON.parse(text) as WireMessage);
        if (answer !== null) {
          await race.until(answer.arrivesAtMs);
          race.delivered(answer);
          race.busy += 1;
        }
        return new Response(text, { status: response.status, headers: response.headers });
      }
      race.noteStreamOpened(requestId, response.headers);
      const sse = `SSE #${String(requestId)}`;
      // The client's end of the stream. The server's stream is read as soon as it is written (a message
      // sent while an earlier one is still on its way must not wait behind it), and each chunk is handed
      // on at its message's arrival time; arrival times along one stream never decrease, so it stays FIFO.
      const bodyReader = response.body.getReader();
      reader = bodyReader;
      let lastArrivalMs = race.nowMs;
      const delayed = new ReadableStream<Uint8Array>({
        start(controller) {
          out = controller;
        },
        cancel(reason) {
          return bodyReader.cancel(reason);
        },
      });
      const pump = async (): Promise<void> => {
        for (;;) {
          const { done, value } = await bodyReader.read();
          if (closedByClient) return;
          if (done) {
            race.at(lastArrivalMs, () => {
              if (!closedByClient) out?.close();
            });
            return;
          }
          // One SSE event per chunk, as the SDKs' server transports write them; a chunk of several arrives with its last.
          const text = new TextDecoder().decode(value);
          const sent = serverTapped
            ? (text.match(/^data:/gm) ?? []).map(() => race.nextSse(sse)).filter((e): e is MessageEvent => e !== null)
            : sseMessages(text)
                .map((m) => race.put('server', sse, m))
                .filter((e): e is MessageEvent => e !== null);
          if (sent.length === 0) {
            race.at(lastArrivalMs, () => {
              if (!closedByClient) out?.enqueue(value);
            });
            continue;
          }
          // At the client's end of the stream now, waiting for its arrival time.
          if (serverTapped) race.busy -= sent.length;
          lastArrivalMs = Math.max(lastArrivalMs, ...sent.map((e) => e.arrivesAtMs));
          race.at(lastArrivalMs, () => {
            if (closedByClient) return;
            for (const e of sent) race.delivered(e);
            // Until the client's transport has parsed them and handed them to the Client.
            race.busy += sent.length;
            out?.enqueue(value);
          });
        }
      };
      pump().catch((error: unknown) => {
        if (!closedByClient) out?.error(error);
      });
      return new Response(delayed, { status: response.status, headers: response.headers });
    };
    return Promise.race([exchange(), abortedFetch]);
  };
}
