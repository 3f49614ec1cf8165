import type { Side } from '../engine';
import type { SdkRace } from './sdkRace';
import type { SendOptions, WireMessage } from './sdkRecorder';

/**
 * The transport surface both SDKs share, as far as the harness uses it: typed by the SDK's own
 * message `M` and the extra it hands `onmessage` beside it, `X`, which the tap passes on untouched.
 */
export interface SdkTransportLike<M extends WireMessage = WireMessage, X = unknown> {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: M, extra?: X) => void;
  readonly sessionId?: string;
  setProtocolVersion?: (version: string) => void;
  start(): Promise<void>;
  send(message: M, options?: SendOptions): Promise<void>;
  close(): Promise<void>;
}

/** Passes an SDK transport through, recording what its side sends; `delay` decides when the other side gets it. */
export class TappedTransport<M extends WireMessage = WireMessage, X = unknown> {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: M, extra?: X) => void;

  constructor(
    private readonly inner: SdkTransportLike<M, X>,
    private readonly side: Side,
    private readonly race: SdkRace,
    private readonly mode: 'stdio' | 'http-server' | 'http-client',
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** The SDK's Client tells its HTTP transport the negotiated revision (the mcp-protocol-version header): passed on as is. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  /** v2 reads the revisions it may offer from the transport, where it has this (passed on as is). */
  setSupportedProtocolVersions(versions: string[]): void {
    (this.inner as { setSupportedProtocolVersions?: (versions: string[]) => void }).setSupportedProtocolVersions?.(
      versions,
    );
  }

  /** v2's Client aborts a request's own POST as its cancellation when the transport says it has one stream per request. */
  get hasPerRequestStream(): boolean | undefined {
    return (this.inner as { hasPerRequestStream?: boolean }).hasPerRequestStream;
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      // Streamable HTTP: the receiving side has read a message the lab delivered; the clock may move again.
      if (this.mode !== 'stdio') this.race.busy -= 1;
      this.onmessage?.(message, extra);
    };
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    return this.inner.start();
  }

  send(message: M, options?: SendOptions): Promise<void> {
    const innerSend = this.inner.send.bind(this.inner);
    if (this.mode === 'stdio') {
      const event = this.race.put(this.side, 'stdio', message);
      this.race.deliverLater(
        event,
        () => void innerSend(message, options).catch((error: unknown) => this.onerror?.(error as Error)),
      );
      return Promise.resolve();
    }
    // Streamable HTTP, client side: labFetch records each POST as it goes out.
    if (this.mode === 'http-client') return innerSend(message, options);
    // Streamable HTTP, server side: the message is written to its SSE stream now; the client's end of that stream reads it after the latency.
    const channel = this.race.sseChannel(message, options);
    const event = this.race.put(this.side, channel, message);
    this.race.queueSse(channel, event);
    if (event !== null) this.race.busy += 1;
    return innerSend(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
