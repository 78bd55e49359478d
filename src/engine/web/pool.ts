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

/** One connection of an origin: a client that lives as long as its socket. */
interface Connection {
  readonly client: Client;
  /**
   * Requests sent on it and not yet ended, as its handlers say: a busy connection is passed over
   * without asking undici (its stats are an object and a few getters each time).
   */
  open: number;
  /** it has carried a request: one may have been closed under the next */
  used: boolean;
}

interface Origin {
  key: string;
  /** connected or connecting; a connection that closed is let go */
  connections: Connection[];
  /** requests for which every connection was busy, oldest first */
  waiting: Waiting[];
  /** settles close() once the last waiting request is sent */
  onEmpty?: () => void;
}

export class WebPool extends Dispatcher {
  private readonly origins = new Map<string, Origin>();
  private closing = false;
  private ended = false;

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
    const connection = idle(origin) ?? this.openConnection(origin);
    if (connection) return this.send(connection, origin, options, handler);
    origin.waiting.push({ options, handler });
    return false;
  }

  private send(
    connection: Connection,
    origin: Origin,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): boolean {
    // A GET or HEAD on a connection that has served before is sent again should it close first.
    const resend = connection.used && isIdempotent(options) ? this : undefined;
    connection.used = true;
    connection.open++;
    return connection.client.dispatch(
      options,
      handler.onRequestStart
        ? new Tracked(handler, connection, resend, origin.key, options)
        : new LegacyTracked(handler, connection, resend, origin.key, options),
    );
  }

  /**
   * The request again, on a connection of its own (or the next one free). Its origin may have
   * been forgotten meanwhile, with the connection that closed.
   */
  sendFresh(
    key: string,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): void {
    if (this.ended) return refuse(handler, new errors.ClientDestroyedError());
    const origin = this.originOf(key);
    const connection = this.openConnection(origin);
    if (!connection) {
      // closing, the connections it has may already be closing too: none would take it
      if (this.closing) return refuse(handler, new errors.ClientClosedError());
      return void origin.waiting.push({ options, handler });
    }
    this.send(connection, origin, options, handler);
    // closing: a request under way is finished, on a connection that then closes
    if (this.closing) void connection.client.close().catch(() => undefined);
  }

  private originOf(key: string): Origin {
    let origin = this.origins.get(key);
    if (!origin) {
      origin = { key, connections: [], waiting: [] };
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
      for (const { client } of origin.connections) ending.push(client.destroy(err));
    }
    this.origins.clear();
    const done = Promise.all(ending).then(() => undefined);
    if (!callback) return done;
    void done.then(callback);
  }

  /** A new connection for `origin`, unless it has as many as it may. */
  private openConnection(origin: Origin): Connection | undefined {
    if (origin.connections.length >= this.connectionsPerOrigin) return undefined;
    const connection: Connection = {
      client: new Client(origin.key, this.clientOptions),
      open: 0,
      used: false,
    };
    origin.connections.push(connection);
    // A client lives for one connection: once it closes (idle past its keep-alive, the server
    // hung up, a request cut off) it is let go, and an origin left without any is forgotten.
    const letGo = () => this.letGo(origin, connection);
    connection.client.on('disconnect', letGo).on('connectionError', letGo);
    // undici says when a busy connection is free again: the waiting request's turn.
    connection.client.on('drain', () => this.sendWaiting(origin));
    return connection;
  }

  private letGo(origin: Origin, connection: Connection): void {
    const at = origin.connections.indexOf(connection);
    if (at < 0) return;
    origin.connections.splice(at, 1);
    // After the client has told everyone: a request cut off leaves undici reconnecting to
    // send nothing, which destroying it spares.
    const { client } = connection;
    queueMicrotask(() => void client.destroy().catch(() => undefined));
    if (origin.connections.length === 0 && origin.waiting.length === 0 && !this.closing) {
      this.origins.delete(origin.key);
    }
    this.sendWaiting(origin);
  }

  private sendWaiting(origin: Origin): void {
    while (origin.waiting.length > 0) {
      const connection = idle(origin) ?? this.openConnection(origin);
      if (!connection) return;
      const { options, handler } = origin.waiting.shift()!;
      this.send(connection, origin, options, handler);
    }
    origin.onEmpty?.();
  }

  private closeOrigin(origin: Origin): Promise<void> {
    const closeClients = () =>
      Promise.all(
        origin.connections.map(({ client }) => client.close().catch(() => undefined)),
      ).then(() => undefined);
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
 * undici is asked only about a connection whose requests have all ended.
 */
function idle(origin: Origin): Connection | undefined {
  for (const connection of origin.connections) {
    if (connection.open > 0) continue;
    const { size, connected } = connection.client.stats;
    if (size === 0 && connected) return connection;
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
 * What the pool keeps of a request it sent: it tells the pool when the request has ended, and
 * when `resend` is given (a GET or HEAD on a connection that has served before) sends it again,
 * once, should the connection close before any answer. A handler of each of undici's two
 * interfaces wraps the caller's on it.
 */
abstract class SentRequest {
  protected answered = false;
  private ended = false;

  constructor(
    protected readonly inner: Dispatcher.DispatchHandler,
    private readonly connection: Connection,
    private readonly resend: WebPool | undefined,
    private readonly originKey: string,
    private readonly options: Dispatcher.DispatchOptions,
  ) {}

  /** Once, whichever way the request ends. */
  protected end(): void {
    if (this.ended) return;
    this.ended = true;
    this.connection.open--;
  }

  /** Sends the request again if `err` is the connection closing before any answer. */
  protected resent(err: Error): boolean {
    if (!this.resend || this.answered || !closedUnder(err)) return false;
    this.resend.sendFresh(this.originKey, this.options, this.inner);
    return true;
  }
}

/** A request of a handler of undici's current interface. */
class Tracked extends SentRequest implements Dispatcher.DispatchHandler {
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
    this.end();
    this.inner.onResponseEnd?.(...args);
  }

  onResponseError(controller: Dispatcher.DispatchController, err: Error): void {
    this.end();
    if (controller?.aborted || !this.resent(err)) this.inner.onResponseError?.(controller, err);
  }
}

/** A request of a handler of undici's older interface (its request() API's). */
class LegacyTracked extends SentRequest implements Dispatcher.DispatchHandler {
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
    this.end();
    this.inner.onComplete?.(trailers);
  }

  onError(err: Error): void {
    this.end();
    if (!this.resent(err)) this.inner.onError?.(err);
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
