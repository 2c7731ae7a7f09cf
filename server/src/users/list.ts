import type { Request, Response } from 'restify';
import { TurnShare } from '../concurrency/turn-share.ts';
import { DEFAULTS } from '../defaults.ts';
import { sendXml } from '../http/send.ts';
import { StreamedBody } from '../http/stream.ts';
import { XML_CONTENT_TYPE } from '../http/xml.ts';
import { LIST_CLOSE, LIST_OPEN, renderUserElements, renderUserList } from './render.ts';
import type { UserStore, UserValues } from './store.ts';

export interface UserListOptions {
  /** Users read from Redis per step (each step holds Redis for a bounded time, under a millisecond). */
  chunkSize?: number;
  /** The largest list document kept in memory for the next lists, in bytes. */
  maxCachedBytes?: number;
  /** Chunks rendered in one turn of the event loop, across all lists (concurrency/turn-share.ts). */
  chunksPerTurn?: number;
}

const DEFAULT_CHUNK_SIZE = DEFAULTS.listChunkSize;
const DEFAULT_MAX_CACHED_BYTES = DEFAULTS.listMaxCachedBytes;
const BUILD_WAIT_MS = DEFAULTS.listBuildWaitMs;

/**
 * The list document of one version of the collection. A version token names one state of the users
 * (every change writes a new, unique token), so a document read entirely while Redis held one token
 * (read before its first chunk and after each chunk) is exactly the current list for as long as Redis
 * still holds that token, whichever instance changed what. One document at most, and only up to
 * `maxBytes`: memory stays bounded whatever the size of the collection.
 */
class ListDocumentCache {
  private stored: { version: string; bytes: Buffer } | undefined;
  /**
   * The one list building a document for the cache. Lists of the same version that arrive meanwhile
   * wait for it instead of reading and rendering the same users again; one builder at a time also
   * means that ten large lists never hold ten partial copies.
   */
  private building: { version: string; done: Promise<Buffer | undefined> } | undefined;

  constructor(readonly maxBytes: number) {}

  /**
   * The document of `version`: stored, or being built by another list (waited for up to `waitMs`: a
   * builder writing to a slow reader must not hold the others up). Undefined when none, or too large.
   */
  get(version: string, waitMs: number): Buffer | Promise<Buffer | undefined> | undefined {
    if (version === '') return undefined;
    if (this.stored?.version === version) return this.stored.bytes;
    if (this.building?.version !== version) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const given = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, waitMs, undefined);
    });
    return Promise.race([this.building.done, given]).finally(() => clearTimeout(timer));
  }

  /** A collector for a list of `version`, or undefined when another list is building one. */
  collector(version: string): DocumentCollector | undefined {
    if (version === '' || this.building) return undefined;
    let finish: (bytes: Buffer | undefined) => void = () => {};
    const building = { version, done: new Promise<Buffer | undefined>((resolve) => (finish = resolve)) };
    this.building = building;
    return new DocumentCollector(version, this.maxBytes, (bytes) => {
      if (this.building === building) this.building = undefined;
      if (bytes) this.stored = { version, bytes };
      finish(bytes);
    });
  }
}

/** Gathers the pieces of one list while they stay small and of one version. */
class DocumentCollector {
  private pieces: Buffer[] | undefined = [];
  private size = 0;
  private finished = false;

  constructor(
    private readonly version: string,
    private readonly maxBytes: number,
    private readonly done: (bytes: Buffer | undefined) => void,
  ) {}

  /** False once the document cannot be cached (too large, or a user changed while it was read). */
  get collecting(): boolean {
    return this.pieces !== undefined;
  }

  add(piece: Buffer, version: string): void {
    if (!this.pieces) return;
    this.size += piece.length;
    if (version !== this.version || this.size > this.maxBytes) this.pieces = undefined;
    else this.pieces.push(piece);
  }

  /** Stores the whole document when it was complete, of one version and small enough; ends the build. */
  finish(complete: boolean): Buffer | undefined {
    if (this.finished) return undefined;
    this.finished = true;
    const bytes = complete && this.pieces ? Buffer.concat(this.pieces, this.size) : undefined;
    this.pieces = undefined;
    this.done(bytes);
    return bytes;
  }
}

/** Where the pieces of a list go: the response (GET), or only the collector (HEAD). */
type PieceSink = (piece: Buffer | string) => Promise<boolean>;

/** One chunk of a list: its users, the version token read after them, and whether more may follow. */
interface ListChunk extends UserValues {
  more: boolean;
}

/**
 * GET and HEAD of the list (docs/listing.md). The users are read in ascending id order a chunk at a
 * time (ids from the index, then their values), each read holding Redis for a bounded time, and the
 * document is written as it is rendered, with backpressure; the next chunk is read while the current
 * one is rendered and written. A list that fits in one chunk is answered whole with a Content-Length;
 * a larger one is streamed. A document no larger than `maxCachedBytes` is kept with the version token
 * it was read under and answered again, after one GET of the token, for as long as no user changed.
 */
export class UserList {
  private readonly chunkSize: number;
  private readonly cache: ListDocumentCache;
  private readonly turns: TurnShare;

  constructor(
    private readonly store: UserStore,
    options: UserListOptions = {},
  ) {
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.cache = new ListDocumentCache(options.maxCachedBytes ?? DEFAULT_MAX_CACHED_BYTES);
    this.turns = new TurnShare(options.chunksPerTurn ?? DEFAULTS.listChunksPerTurn);
  }

  async send(req: Request, res: Response): Promise<void> {
    await this.store.prepareList();
    // Every change writes a new token: a document read entirely under this token is the current list.
    const version = await this.store.listVersion();
    const cached = await this.cache.get(version, BUILD_WAIT_MS);
    if (cached) return sendXml(res, 200, cached);

    // Failures up to the first bytes are answered with an error status.
    const collector = this.cache.collector(version);
    const chunks = this.chunks();
    let complete = false;
    try {
      const first = (await chunks.next()).value as ListChunk;
      if (!first.more) {
        const whole = Buffer.from(renderUserList(first.users), 'utf8');
        collector?.add(whole, first.version);
        complete = true;
        return sendXml(res, 200, whole);
      }
      if (req.method === 'HEAD') {
        // No body to write: the document is built for the cache while it may be kept, then answered
        // with its length like a cached one (or without, past the bound, like the streamed GET).
        complete =
          collector !== undefined &&
          (await this.render(first, chunks, collector, async () => collector.collecting));
        const whole = complete ? collector?.finish(true) : undefined;
        if (whole) return sendXml(res, 200, whole);
        const body = new StreamedBody(res);
        body.start(200, XML_CONTENT_TYPE);
        return body.end();
      }
      await this.streamTo(req, res, first, chunks, collector, () => {
        complete = true;
      });
    } finally {
      collector?.finish(complete);
      chunks.return(undefined).catch(() => {});
    }
  }

  /** GET of a list of many chunks: streamed; a failure once the first bytes are out cuts the response short. */
  private async streamTo(
    req: Request,
    res: Response,
    first: ListChunk,
    chunks: AsyncGenerator<ListChunk, void, undefined>,
    collector: DocumentCollector | undefined,
    onComplete: () => void,
  ): Promise<void> {
    const body = new StreamedBody(res);
    body.start(200, XML_CONTENT_TYPE);
    try {
      if (await this.render(first, chunks, collector, (piece) => body.write(piece))) {
        onComplete();
        body.end();
      }
    } catch (err) {
      // The status and the first bytes are out: the client learns of the failure by the missing end.
      req.log.error({ err, reqId: req.id() }, 'the user list failed after it started; response cut short');
      body.abort();
    }
  }

  /**
   * The chunks of the list in id order. Ids above the last id read come from the index, so the read
   * position only ever moves up: a user present for the whole list is read exactly once. The ids of the
   * next chunk are asked for as soon as those of the current one are known.
   */
  private async *chunks(): AsyncGenerator<ListChunk, void, undefined> {
    let ids = await this.store.readIdsAfter(undefined, this.chunkSize);
    for (;;) {
      const more = ids.length === this.chunkSize;
      const nextIds = more ? this.store.readIdsAfter(Number(ids[ids.length - 1]), this.chunkSize) : undefined;
      nextIds?.catch(() => {}); // awaited below; not a rejection nobody handles if the list ends first
      const values = await this.store.readUsers(ids);
      yield { ...values, more };
      if (!nextIds) return;
      ids = await nextIds;
    }
  }

  /** Renders the list from its first chunk on into `sink`; true once the whole document went out. */
  private async render(
    first: ListChunk,
    chunks: AsyncGenerator<ListChunk, void, undefined>,
    collector: DocumentCollector | undefined,
    sink: PieceSink,
  ): Promise<boolean> {
    let chunk = first;
    let piece = LIST_OPEN + renderUserElements(chunk.users);
    for (;;) {
      // The next chunk is read while this one is written.
      const pending = chunk.more ? chunks.next() : undefined;
      pending?.catch(() => {}); // awaited below, unless the client has gone
      const text = chunk.more ? piece : piece + LIST_CLOSE;
      // Bytes only while the document may still be kept (the cache holds bytes); past that the text goes
      // to the socket as it is, without a copy outside the heap for every chunk of a large list.
      let out: Buffer | string = text;
      if (collector?.collecting) {
        out = Buffer.from(text, 'utf8');
        collector.add(out, chunk.version);
      }
      if (!(await sink(out))) return false;
      if (!pending) return true;
      chunk = (await pending).value as ListChunk;
      await this.turns.take();
      piece = renderUserElements(chunk.users);
    }
  }
}
