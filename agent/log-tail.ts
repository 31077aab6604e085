import { open, stat } from "node:fs/promises";

/** Bytes read per look: a burst of lines is taken over a few looks, never all at once into memory. */
const chunkBytes = 1 << 20;

/**
 * Follows a log file like `tail -F`: starts at its end (history is not news), reads what
 * was appended, and starts over from the top when the file is replaced or truncated
 * (logrotate). A missing file is waited for: the core creates it with its first line.
 */
export class LogTail {
  private offset: number | undefined;
  private inode: number | undefined;
  private remainder = "";
  private readonly decoder = new TextDecoder();
  private reading: Promise<boolean> = Promise.resolve(false);
  private readonly path: string;
  private readonly onLine: (line: string) => void;

  constructor(path: string, onLine: (line: string) => void) {
    this.path = path;
    this.onLine = onLine;
  }

  /**
   * Marks the current end of the file as read and answers it (the offset and whether the
   * file exists): what came before is history, read backwards by whoever needs it
   * (log-history.ts). A line still being written is news: the next look reads it whole.
   */
  async skipToEnd(): Promise<number | undefined> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.path);
    } catch {
      // Not there yet: read it from its first byte once it appears.
      this.offset = 0;
      this.inode = undefined;
      return undefined;
    }
    this.inode = info.ino;
    this.offset = await lineBoundaryBefore(this.path, info.size);
    return this.offset;
  }

  /** Reads what was appended since the last look; true when there may be more to read. */
  poll(): Promise<boolean> {
    // Looks run one after another: two at once would read the same bytes twice.
    this.reading = this.reading.catch(() => false).then(() => this.readAppended());
    return this.reading;
  }

  private async readAppended(): Promise<boolean> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.path);
    } catch {
      return false;
    }
    if (this.inode !== undefined && info.ino !== this.inode) this.startOver();
    if (this.offset === undefined || info.size < this.offset) this.startOver();
    this.inode = info.ino;
    const offset = this.offset ?? 0;
    if (info.size === offset) return false;
    const length = Math.min(chunkBytes, info.size - offset);
    const buffer = new Uint8Array(length);
    const file = await open(this.path, "r");
    let read: number;
    try {
      ({ bytesRead: read } = await file.read(buffer, 0, length, offset));
    } finally {
      await file.close();
    }
    this.offset = offset + read;
    const text = this.remainder + this.decoder.decode(buffer.subarray(0, read), { stream: true });
    const lines = text.split("\n");
    this.remainder = lines.pop() ?? "";
    for (const line of lines) if (line) this.onLine(line);
    return this.offset < info.size;
  }

  private startOver(): void {
    this.offset = 0;
    this.remainder = "";
  }
}

/** The offset just after the last line break at or before `size` (0 when there is none). */
async function lineBoundaryBefore(path: string, size: number): Promise<number> {
  if (size === 0) return 0;
  const length = Math.min(size, chunkBytes);
  const buffer = new Uint8Array(length);
  const file = await open(path, "r");
  try {
    const { bytesRead } = await file.read(buffer, 0, length, size - length);
    const lastNewline = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    // A last line longer than a chunk is no access line: skip it rather than read it as news.
    return lastNewline < 0 ? (size > length ? size : 0) : size - length + lastNewline + 1;
  } finally {
    await file.close();
  }
}
