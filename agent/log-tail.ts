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

  constructor(
    private readonly path: string,
    private readonly onLine: (line: string) => void,
  ) {}

  /**
   * Marks the current end of the file as read. With `history`, the last `maxBytes` before
   * that end go to `history.onLine` first (whole lines only): connections opened before
   * the agent started are still open, and only the log says whose they are.
   */
  async skipToEnd(history?: { maxBytes: number; onLine: (line: string) => void }): Promise<void> {
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(this.path);
    } catch {
      // Not there yet: read it from its first byte once it appears.
      this.offset = 0;
      this.inode = undefined;
      return;
    }
    this.inode = info.ino;
    this.offset = info.size;
    if (!history || info.size === 0) return;
    // One byte before the bound: it says whether the first line read is whole.
    const start = Math.max(0, info.size - history.maxBytes - 1);
    const buffer = new Uint8Array(info.size - start);
    const file = await open(this.path, "r");
    let read: number;
    try {
      ({ bytesRead: read } = await file.read(buffer, 0, buffer.length, start));
    } finally {
      await file.close();
    }
    const bytes = buffer.subarray(0, read);
    const lastNewline = bytes.lastIndexOf(0x0a);
    // A line still being written is news: the next look reads it whole.
    this.offset = lastNewline < 0 ? start : start + lastNewline + 1;
    if (lastNewline < 0) return;
    const lines = new TextDecoder().decode(bytes.subarray(0, lastNewline)).split("\n");
    // The piece before the first line break is a cut line (or nothing, when the bound fell between lines).
    if (start > 0) lines.shift();
    for (const line of lines) if (line) history.onLine(line);
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
