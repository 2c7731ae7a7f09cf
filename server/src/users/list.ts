import type { Request, Response } from 'restify';
import { sendXml } from '../http/send.ts';
import { StreamedBody } from '../http/stream.ts';
import { XML_CONTENT_TYPE } from '../http/xml.ts';
import { LIST_CLOSE, LIST_OPEN, renderUserElements, renderUserList } from './render.ts';
import type { UserStore, UserValues } from './store.ts';

export interface UserListOptions {
  /** Users read from Redis per step (each step holds Redis for a bounded time, about a millisecond). */
  chunkSize?: number;
  /** The largest list document kept in memory for the next lists, in bytes. */
  maxCachedBytes?: number;
}

const DEFAULT_CHUNK_SIZE = 1000;
const DEFAULT_MAX_CACHED_BYTES = 4 * 1024 * 1024;

/**
 * The list document of one version of the collection. A version token names one state of the users
 * (every change writes a new, unique token), so a document stored under the token read with the last
 * of its chunks, when every chunk read the same token, is exactly the current list for as long as
 * Redis still holds that token, whichever instance changed what. One document at most, and only up
 * to `maxBytes`: memory stays bounded whatever the size of the collection.
 */
class ListDocumentCache {
  private stored: { version: string; bytes: Buffer } | undefined;
  /** One list at a time collects its pieces for the cache (ten large lists must not hold ten copies). */
  private collecting = false;

  constructor(readonly maxBytes: number) {}

  get(version: string): Buffer | undefined {
    return version !== '' && this.stored?.version === version ? this.stored.bytes : undefined;
  }

  store(version: string, bytes: Buffer): void {
    if (version !== '' && bytes.length <= this.maxBytes) this.stored = { version, bytes };
  }

  /** A collector for a streamed list of `version`, or undefined when another list is collecting. */
  collector(version: string): DocumentCollector | undefined {
    if (version === '' || this.collecting) return undefined;
    this.collecting = true;
    return new DocumentCollector(version, this.maxBytes, (bytes) => {
      this.collecting = false;
      if (bytes) this.store(version, bytes);
    });
  }
}

/** Gathers the pieces of one streamed list while they stay small and of one version. */
class DocumentCollector {
  private pieces: Buffer[] | undefined = [];
  private size = 0;

  constructor(
    private readonly version: string,
    private readonly maxBytes: number,
    private readonly done: (bytes: Buffer | undefined) => void,
  ) {}

  add(piece: Buffer, version: string): void {
    if (!this.pieces) return;
    this.size += piece.length;
    if (version !== this.version || this.size > this.maxBytes) this.pieces = undefined;
    else this.pieces.push(piece);
  }

  /** The whole document when it was complete, of one version and small enough; gives the turn back. */
  finish(complete: boolean): void {
    this.done(complete && this.pieces ? Buffer.concat(this.pieces, this.size) : undefined);
    this.pieces = undefined;
  }
}

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

  constructor(
    private readonly store: UserStore,
    options: UserListOptions = {},
  ) {
    this.chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    this.cache = new ListDocumentCache(options.maxCachedBytes ?? DEFAULT_MAX_CACHED_BYTES);
  }

  async send(req: Request, res: Response): Promise<void> {
    await this.store.prepareList();
    // Every change writes a new token: a document read entirely under this token is the current list.
    const version = await this.store.listVersion();
    const cached = this.cache.get(version);
    if (cached) return sendXml(res, 200, cached);

    // Failures up to the first bytes are answered with an error status.
    const chunks = this.chunks();
    const first = (await chunks.next()).value as ListChunk;
    if (!first.more) {
      const whole = Buffer.from(renderUserList(first.users), 'utf8');
      if (first.version === version) this.cache.store(version, whole);
      return sendXml(res, 200, whole);
    }

    const body = new StreamedBody(res);
    body.start(200, XML_CONTENT_TYPE);
    const collector = req.method === 'HEAD' ? undefined : this.cache.collector(version);
    let complete = false;
    try {
      complete = req.method === 'HEAD' || (await this.stream(body, first, chunks, collector));
      if (complete) body.end();
    } catch (err) {
      // The status and the first bytes are out: the client learns of the failure by the missing end.
      req.log.error({ err, reqId: req.id() }, 'the user list failed after it started; response cut short');
      body.abort();
    } finally {
      collector?.finish(complete);
      chunks.return(undefined).catch(() => {});
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

  /** Writes the list from its first chunk on; true once the whole document is written. */
  private async stream(
    body: StreamedBody,
    first: ListChunk,
    chunks: AsyncGenerator<ListChunk, void, undefined>,
    collector: DocumentCollector | undefined,
  ): Promise<boolean> {
    let chunk = first;
    let piece = LIST_OPEN + renderUserElements(chunk.users);
    for (;;) {
      // The next chunk is read while this one is written.
      const pending = chunk.more ? chunks.next() : undefined;
      pending?.catch(() => {}); // awaited below, unless the client has gone
      const bytes = Buffer.from(chunk.more ? piece : piece + LIST_CLOSE, 'utf8');
      collector?.add(bytes, chunk.version);
      if (!(await body.write(bytes))) return false;
      if (!pending) return true;
      chunk = (await pending).value as ListChunk;
      piece = renderUserElements(chunk.users);
    }
  }
}
