import type { Request, Response } from 'restify';
import { sendXml } from '../http/send.ts';
import { StreamedBody } from '../http/stream.ts';
import { XML_CONTENT_TYPE } from '../http/xml.ts';
import { LIST_CLOSE, LIST_OPEN, renderUserElements, renderUserList } from './render.ts';
import type { UserChunk, UserStore } from './store.ts';

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

/**
 * GET and HEAD of the list (docs/listing.md). The users are read in ascending id order a chunk at a
 * time, each chunk in one bounded step, and the document is written as it is rendered, with
 * backpressure; the next chunk is read while the current one is written. A list that fits in one
 * chunk is answered whole with a Content-Length; a larger one is streamed. A document no larger than
 * `maxCachedBytes` is kept with its version token and answered again, after one GET of the token, for
 * as long as no user changed.
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
    const cached = this.cache.get(await this.store.listVersion());
    if (cached) return sendXml(res, 200, cached);

    // Failures up to here are answered with an error status (nothing was sent yet).
    const first = await this.store.readUsersAfter(undefined, this.chunkSize);
    if (first.next === undefined) {
      const whole = Buffer.from(renderUserList(first.users), 'utf8');
      this.cache.store(first.version, whole);
      return sendXml(res, 200, whole);
    }

    const body = new StreamedBody(res);
    body.start(200, XML_CONTENT_TYPE);
    if (req.method === 'HEAD') return body.end();
    const collector = this.cache.collector(first.version);
    let complete = false;
    try {
      complete = await this.stream(body, first, collector);
    } catch (err) {
      // The status and the first bytes are out: the client learns of the failure by the missing end.
      req.log.error({ err, reqId: req.id() }, 'the user list failed after it started; response cut short');
      body.abort();
    } finally {
      collector?.finish(complete);
    }
  }

  /** Writes the list from its first chunk on; true once the whole document is written. */
  private async stream(
    body: StreamedBody,
    first: UserChunk,
    collector: DocumentCollector | undefined,
  ): Promise<boolean> {
    let chunk = first;
    let piece = LIST_OPEN + renderUserElements(chunk.users);
    for (;;) {
      // The next chunk is on its way while this piece is written.
      const pending =
        chunk.next === undefined ? undefined : this.store.readUsersAfter(chunk.next, this.chunkSize);
      const bytes = Buffer.from(chunk.next === undefined ? piece + LIST_CLOSE : piece, 'utf8');
      collector?.add(bytes, chunk.version);
      if (!(await body.write(bytes))) {
        pending?.catch(() => {}); // the client has gone: its result is of no use
        return false;
      }
      if (!pending) break;
      chunk = await pending;
      piece = renderUserElements(chunk.users);
    }
    body.end();
    return true;
  }
}
