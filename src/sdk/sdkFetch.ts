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
    const post = new PostExchange(race, server, serverTapped, handle, input, init, init.body);
    return Promise.race([post.exchange(), post.abortedFetch]);
  };
}

/**
 * One POST of the SDK's client: its message delivered to the server's end after the latency, and the
 * answer handed back to the client's end at its arrival (a JSON body whole, an SSE stream chunk by
 * chunk). The client's SDK aborting the fetch closes the request's connection: the fetch (or its body,
 * once it has one) rejects at once, as a host's fetch does, and the server's end sees the close one
 * latency later.
 */
class PostExchange {
  private readonly message: WireMessage;
  private readonly isRequest: boolean;
  private readonly requestId: number | string | null;
  private readonly channel: string;
  /** The server's end of the connection: aborted when the client's abort reaches it, one latency after. */
  private readonly connection = new AbortController();
  private readonly request: Request;
  /** The server's response stream, once it is read (SSE). */
  private reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** The client's end of that stream. */
  private out: ReadableStreamDefaultController<Uint8Array> | null = null;
  private closedByClient = false;
  private rejectFetch: (reason: unknown) => void = () => undefined;
  /** Rejects when the client's SDK aborts the fetch. */
  readonly abortedFetch: Promise<never>;

  constructor(
    private readonly race: SdkRace,
    private readonly server: HttpServerLike,
    private readonly serverTapped: boolean,
    private readonly handle: (request: Request) => Promise<Response>,
    input: Parameters<typeof fetch>[0],
    init: RequestInit,
    body: string,
  ) {
    const message = JSON.parse(body) as WireMessage;
    this.message = message;
    this.isRequest = 'method' in message && 'id' in message;
    this.requestId = this.isRequest ? (message.id as number | string) : null;
    this.channel = this.isRequest
      ? `POST #${String(this.requestId)}`
      : `POST ${'method' in message ? String(message.method) : 'response'}`;
    this.request = new Request(input, { ...init, signal: this.connection.signal });
    this.abortedFetch = new Promise<never>((_resolve, reject) => {
      this.rejectFetch = reject;
    });
    this.abortedFetch.catch(() => undefined);
    const clientSignal = init.signal;
    clientSignal?.addEventListener('abort', () => this.clientAborted(clientSignal.reason), { once: true });
  }

  /** The client's SDK aborted this POST's fetch. */
  private clientAborted(reason: unknown): void {
    if (this.closedByClient) return;
    this.closedByClient = true;
    this.rejectFetch(reason);
    this.out?.error(reason);
    const disconnect = (): void => {
      this.connection.abort(reason);
      this.reader?.cancel(reason).catch(() => undefined);
    };
    const requestId = this.requestId;
    const observedAtMs = requestId === null ? null : this.race.clientClosedStream(requestId);
    // After the run (closing the session), or a notification's POST: nothing is recorded and nothing waits.
    if (observedAtMs === null || requestId === null) return disconnect();
    this.race.at(observedAtMs, () => {
      this.race.serverObservedDisconnect(requestId);
      disconnect();
    });
  }

  /** The POST's message to the server's end, and its answer back to the client's. */
  async exchange(): Promise<Response> {
    const { race, requestId } = this;
    race.notePost(this.channel, this.request.headers);
    const event = race.put('client', this.channel, this.message);
    if (event !== null) {
      await race.until(event.arrivesAtMs);
      race.delivered(event);
    }
    let response: Response;
    // Until the server has what it needs of the request: see `releaseOnDispatch`.
    race.busy += 1;
    if (this.serverTapped) {
      // Until the server's transport hands it to the Server: the busy count covers handleRequest, and the server's onmessage ends it.
      response = await this.handle(this.request);
      if (!(response.status >= 200 && response.status < 300)) race.busy -= 1;
    } else {
      const release = this.releaseOnDispatch();
      try {
        response = await this.server.handleRequest(this.request);
      } finally {
        release();
      }
    }
    if (!this.isRequest || requestId === null || response.body === null || this.closedByClient) return response;
    const isSse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
    if (isSse) return this.delayedStream(response, response.body, requestId);
    if (this.serverTapped) return response;
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

  /**
   * v2 answers a request once its first message is written (a result as JSON, or a progress that
   * opens the SSE stream), which may be virtual time later: the clock may move once the server has
   * dispatched the request to its handler, or answered. Returns the release of the busy count.
   */
  private releaseOnDispatch(): () => void {
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      this.race.busy -= 1;
    };
    if (this.requestId !== null) this.race.onDispatch(this.requestId, release);
    return release;
  }

  /**
   * The client's end of an SSE response. The server's stream is read as soon as it is written (a
   * message sent while an earlier one is still on its way must not wait behind it), and each chunk is
   * handed on at its message's arrival time; arrival times along one stream never decrease, so it stays FIFO.
   */
  private delayedStream(response: Response, body: ReadableStream<Uint8Array>, requestId: number | string): Response {
    this.race.noteStreamOpened(requestId, response.headers);
    const bodyReader = body.getReader();
    this.reader = bodyReader;
    const delayed = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.out = controller;
      },
      cancel(reason) {
        return bodyReader.cancel(reason);
      },
    });
    this.pump(bodyReader, `SSE #${String(requestId)}`).catch((error: unknown) => {
      if (!this.closedByClient) this.out?.error(error);
    });
    return new Response(delayed, { status: response.status, headers: response.headers });
  }

  /** Reads the server's stream chunk by chunk, handing each on at its arrival. */
  private async pump(bodyReader: ReadableStreamDefaultReader<Uint8Array>, sse: string): Promise<void> {
    const race = this.race;
    let lastArrivalMs = race.nowMs;
    for (;;) {
      const { done, value } = await bodyReader.read();
      if (this.closedByClient) return;
      if (done) {
        race.at(lastArrivalMs, () => {
          if (!this.closedByClient) this.out?.close();
        });
        return;
      }
      // One SSE event per chunk, as the SDKs' server transports write them; a chunk of several arrives with its last.
      const text = new TextDecoder().decode(value);
      const sent = this.serverTapped
        ? (text.match(/^data:/gm) ?? []).map(() => race.nextSse(sse)).filter((e): e is MessageEvent => e !== null)
        : sseMessages(text)
            .map((m) => race.put('server', sse, m))
            .filter((e): e is MessageEvent => e !== null);
      if (sent.length === 0) {
        race.at(lastArrivalMs, () => {
          if (!this.closedByClient) this.out?.enqueue(value);
        });
        continue;
      }
      // At the client's end of the stream now, waiting for its arrival time.
      if (this.serverTapped) race.busy -= sent.length;
      lastArrivalMs = Math.max(lastArrivalMs, ...sent.map((e) => e.arrivesAtMs));
      race.at(lastArrivalMs, () => {
        if (this.closedByClient) return;
        for (const e of sent) race.delivered(e);
        // Until the client's transport has parsed them and handed them to the Client.
        race.busy += sent.length;
        this.out?.enqueue(value);
      });
    }
  }
}
