// The connections of the engine's web fetches: up to a few per origin, a request sent on one
// with nothing in flight the moment it is asked for. undici's Pool gives a connection that has
// just answered back a turn of the event loop later (against a server that closes a connection
// it said it would keep), so a request sent meanwhile found every connection busy and opened
// another, and each link of a check waited that turn before its host's next request: a round
// of a few hundred answers waited for the whole round to be read. Here the next request goes
// out at once; should the server have closed that connection without saying so, a GET or HEAD
// that got no answer on it is sent again on a new one (RFC 9112 section 9.3.1).
import { Client, Dispatcher, errors } from 'undici';

interface Waiting {
  options: Dispatcher.DispatchOptions;
  handler: Dispatcher.DispatchHandler;
}

interface Origin {
  key: string;
  /** connected or connecting; a client whose connection closed is let go */
  clients: Client[];
  /** requests for which every connection was busy, oldest first */
  waiting: Waiting[];
  /** settles close() once the last waiting request is sent */
  onEmpty?: () => void;
}

export class WebPool extends Dispatcher {
  private readonly origins = new Map<string, Origin>();
  private closing = false;
  private ended = false;
  /** connections that have carried a request: one may have been closed under the next */
  private readonly used = new WeakSet<Client>();

  constructor(
    private readonly clientOptions: Client.Options,
    private readonly connectionsPerOrigin: number,
  ) {
    super();
  }

  get closed(): boolean {
    return this.closing;
  }

  get destroyed(): boolean {
    return this.ended;
  }

  /** Sends the request on an idle connection of its origin, a new one, or once one is free. */
  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    if (this.closing) {
      refuse(
        handler,
        this.ended ? new errors.ClientDestroyedError() : new errors.ClientClosedError(),
      );
      return false;
    }
    const origin = this.originOf(String(options.origin));
    const client = idle(origin) ?? this.openConnection(origin);
    if (client) return this.send(client, origin, options, handler);
    origin.waiting.push({ options, handler });
    return false;
  }

  private send(
    client: Client,
    origin: Origin,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    if (!this.used.has(client)) {
      this.used.add(client);
      return client.dispatch(options, handler);
    }
    if (!isIdempotent(options)) return client.dispatch(options, handler);
    const again = () => this.sendFresh(origin.key, options, handler);
    return client.dispatch(
      options,
      handler.onRequestStart
        ? new RetryOnClosed(handler, again)
        : new LegacyRetryOnClosed(handler, again),
    );
  }

  /**
   * The request again, on a connection of its own (or the next one free). Its origin may have
   * been forgotten meanwhile, with the connection that closed.
   */
  private sendFresh(
    key: string,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): void {
    if (this.ended) return refuse(handler, new errors.ClientDestroyedError());
    const origin = this.originOf(key);
    const client = this.openConnection(origin);
    if (!client) {
      // closing, the connections it has may already be closing too: none would take it
      if (this.closing) return refuse(handler, new errors.ClientClosedError());
      return void origin.waiting.push({ options, handler });
    }
    this.used.add(client);
    client.dispatch(options, handler);
    // closing: a request under way is finished, on a connection that then closes
    if (this.closing) void client.close().catch(() => undefined);
  }

  private originOf(key: string): Origin {
    let origin = this.origins.get(key);
    if (!origin) {
      origin = { key, clients: [], waiting: [] };
      this.origins.set(key, origin);
    }
    return origin;
  }

  /** Lets the requests under way and waiting finish, then closes every connection. */
  close(): Promise<void>;
  close(callback: () => void): void;
  close(callback?: () => void): Promise<void> | void {
    this.closing = true;
    const done = Promise.all([...this.origins.values()].map((o) => this.closeOrigin(o))).then(
      () => undefined,
    );
    if (!callback) return done;
    void done.then(callback);
  }

  /** Ends every connection and request at once, waiting ones included. */
  destroy(): Promise<void>;
  destroy(err: Error | null): Promise<void>;
  destroy(callback: () => void): void;
  destroy(err: Error | null, callback: () => void): void;
  destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const callback = typeof a === 'function' ? a : b;
    const err = (typeof a === 'function' ? null : a) ?? new errors.ClientDestroyedError();
    this.closing = true;
    this.ended = true;
    const ending: Array<Promise<void>> = [];
    for (const origin of this.origins.values()) {
      for (const { handler } of origin.waiting.splice(0)) refuse(handler, err);
      origin.onEmpty?.();
      for (const client of origin.clients) ending.push(client.destroy(err));
    }
    this.origins.clear();
    const done = Promise.all(ending).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  /** A new connection for `origin`, unless it has as many as it may. */
  private openConnection(origin: Origin): Client | undefined {
    if (origin.clients.length >= this.connectionsPerOrigin) return undefined;
    const client = new Client(origin.key, this.clientOptions);
    origin.clients.push(client);
    // A client lives for one connection: once it closes (idle past its keep-alive, the server
    // hung up, a request cut off) it is let go, and an origin left without any is forgotten.
    const letGo = () => this.letGo(origin, client);
    client.on('disconnect', letGo).on('connectionError', letGo);
    // undici says when a busy connection is free again: the waiting request's turn.
    client.on('drain', () => this.sendWaiting(origin));
    return client;
  }

  private letGo(origin: Origin, client: Client): void {
    const at = origin.clients.indexOf(client);
    if (at < 0) return;
    origin.clients.splice(at, 1);
    // After the client has told everyone: a request cut off leaves undici reconnecting to
    // send nothing, which destroying it spares.
    queueMicrotask(() => void client.destroy().catch(() => undefined));
    if (origin.clients.length === 0 && origin.waiting.length === 0 && !this.closing) {
      this.origins.delete(origin.key);
    }
    this.sendWaiting(origin);
  }

  private sendWaiting(origin: Origin): void {
    while (origin.waiting.length > 0) {
      const client = idle(origin) ?? this.openConnection(origin);
      if (!client) return;
      const { options, handler } = origin.waiting.shift()!;
      this.send(client, origin, options, handler);
    }
    origin.onEmpty?.();
  }

  private closeOrigin(origin: Origin): Promise<void> {
    const closeClients = () =>
      Promise.all(origin.clients.map((c) => c.close().catch(() => undefined))).then(
        () => undefined,
      );
    if (origin.waiting.length === 0) return closeClients();
    return new Promise<void>((resolve) => {
      origin.onEmpty = () => {
        origin.onEmpty = undefined;
        resolve(closeClients());
      };
    });
  }
}

/**
 * A connection of `origin` with nothing sent or waiting on it, and still open: one the server
 * has closed is passed over (undici reads the close with the answer before this turn ends).
 */
function idle(origin: Origin): Client | undefined {
  for (const client of origin.clients) {
    const { size, connected } = client.stats;
    if (size === 0 && connected) return client;
  }
  return undefined;
}

function isIdempotent(options: Dispatcher.DispatchOptions): boolean {
  return (
    (options.method === 'GET' || options.method === 'HEAD') &&
    (options.body === undefined || options.body === null)
  );
}

/**
 * What a connection closed under a request looks like when no answer came: the server had
 * closed it already (an end, or a reset).
 */
function closedUnder(err: Error): boolean {
  const code = (err as { code?: string }).code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

/**
 * A request on a connection that has served before: if it closes before any answer, the
 * request is sent again (once) instead of failing.
 */
class RetryOnClosed implements Dispatcher.DispatchHandler {
  private answered = false;

  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly again: () => void,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.inner.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>
  ): void {
    this.answered = true;
    this.inner.onResponseStart?.(...args);
  }

  onResponseData(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseData']>>
  ): void {
    this.inner.onResponseData?.(...args);
  }

  onResponseEnd(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseEnd']>>
  ): void {
    this.inner.onResponseEnd?.(...args);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    if (!this.answered && !controller?.aborted && closedUnder(err)) this.again();
    else this.inner.onResponseError?.(controller, err);
  }
}

/** RetryOnClosed for a handler of undici's older interface (its request() API's). */
class LegacyRetryOnClosed implements Dispatcher.DispatchHandler {
  private answered = false;

  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly again: () => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.inner.onConnect?.(abort);
  }

  onResponseStarted(): void {
    this.inner.onResponseStarted?.();
  }

  onHeaders(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onHeaders']>>): boolean {
    this.answered = true;
    return this.inner.onHeaders?.(...args) ?? true;
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData?.(chunk) ?? true;
  }

  onUpgrade(...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onUpgrade']>>): void {
    this.inner.onUpgrade?.(...args);
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }

  onComplete(trailers: string[] | null): void {
    this.inner.onComplete?.(trailers);
  }

  onError(err: Error): void {
    if (!this.answered && closedUnder(err)) this.again();
    else this.inner.onError?.(err);
  }
}

/** Ends a request that will not be sent, the way undici does: through its handler. */
function refuse(handler: Dispatcher.DispatchHandler, err: Error): void {
  if (handler.onResponseError) {
    // undici's own handlers get no controller either when the request never started
    handler.onResponseError(undefined as unknown as Dispatcher.DispatchController, err);
  } else if (handler.onError) handler.onError(err);
  else throw err;
}
