import { open } from "node:fs/promises";

/** Bytes read per step backwards: a few hundred lines at a time, never the whole file in memory. */
const chunkBytes = 1 << 20;

/**
 * Reads a log backwards from `end` (a line boundary), newest line first, until `onLine`
 * answers false, the file's first line has been read, or `maxBytes` have been read. Used at
 * start to learn whose connections are open: each open connection was logged when it was
 * accepted, however long ago and however many lines came after it. Returns how many bytes
 * were read and whether the file was read to its start.
 */
export async function readLinesBackwards(
  path: string,
  end: number,
  onLine: (line: string) => boolean,
  maxBytes: number,
): Promise<{ bytesRead: number; isWhole: boolean }> {
  const file = await open(path, "r");
  const decoder = new TextDecoder();
  let position = end;
  // Bytes of a line cut by the chunk boundary, waiting for the rest of it from the chunk before.
  let carried = new Uint8Array(0);
  try {
    while (position > 0 && end - position < maxBytes) {
      const length = Math.min(chunkBytes, position, maxBytes - (end - position));
      const chunk = new Uint8Array(length + carried.length);
      const { bytesRead } = await file.read(chunk, 0, length, position - length);
      if (bytesRead < length) break;
      chunk.set(carried, length);
      position -= length;
      let lineEnd = chunk.length;
      for (let index = chunk.length - 1; index >= 0; index--) {
        if (chunk[index] !== 0x0a) continue;
        if (index + 1 < lineEnd && !onLine(decoder.decode(chunk.subarray(index + 1, lineEnd))))
          return { bytesRead: end - position, isWhole: false };
        lineEnd = index;
      }
      carried = chunk.slice(0, lineEnd);
    }
    // The file's first line has no line break before it.
    if (position === 0 && carried.length > 0) onLine(decoder.decode(carried));
    return { bytesRead: end - position, isWhole: position === 0 };
  } finally {
    await file.close();
  }
}
