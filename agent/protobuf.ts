/**
 * The few protobuf wire rules the core's API needs (varints and length-delimited fields),
 * so the agent carries no .proto files and no code generator. proto3 leaves default values
 * (0, "", empty bytes) off the wire, and so does this writer: the bytes equal what the
 * cores' own Go encoders produce.
 */

const textEncoder = new TextEncoder();
const textDecoder = new TextDecoder();

const wireVarint = 0;
const wireFixed64 = 1;
const wireLengthDelimited = 2;
const wireFixed32 = 5;

function varintBytes(value: number): number[] {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`Not a protobuf varint: ${value}`);
  const bytes: number[] = [];
  let rest = value;
  // Division, not bit shifts: JavaScript's shifts work on 32 bits and would cut larger counters.
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** Builds one message field by field, in the order the fields are written. */
export class ProtoWriter {
  private readonly bytes: number[] = [];

  private key(field: number, wireType: number): void {
    this.bytes.push(...varintBytes(field * 8 + wireType));
  }

  uint(field: number, value: number): this {
    if (value === 0) return this;
    this.key(field, wireVarint);
    this.bytes.push(...varintBytes(value));
    return this;
  }

  bool(field: number, value: boolean): this {
    return this.uint(field, value ? 1 : 0);
  }

  bytesField(field: number, value: Uint8Array): this {
    if (value.length === 0) return this;
    this.key(field, wireLengthDelimited);
    this.bytes.push(...varintBytes(value.length));
    for (const byte of value) this.bytes.push(byte);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytesField(field, textEncoder.encode(value));
  }

  /** An embedded message is present even when empty: its presence is the information. */
  message(field: number, value: Uint8Array): this {
    this.key(field, wireLengthDelimited);
    this.bytes.push(...varintBytes(value.length));
    for (const byte of value) this.bytes.push(byte);
    return this;
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

export type ProtoField =
  | { field: number; kind: "varint"; value: number }
  | { field: number; kind: "bytes"; value: Uint8Array };

/** Every field of one message, in wire order; fixed-width fields are skipped (none is read). */
export function readFields(buffer: Uint8Array): ProtoField[] {
  const fields: ProtoField[] = [];
  let position = 0;

  const readVarint = (): number => {
    let value = 0;
    let scale = 1;
    for (let count = 0; count < 10; count++) {
      const byte = buffer[position++];
      if (byte === undefined) throw new RangeError("Truncated protobuf varint");
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 0x80;
    }
    throw new RangeError("Protobuf varint longer than 10 bytes");
  };

  while (position < buffer.length) {
    const key = readVarint();
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    if (wireType === wireVarint) fields.push({ field, kind: "varint", value: readVarint() });
    else if (wireType === wireLengthDelimited) {
      const length = readVarint();
      if (position + length > buffer.length) throw new RangeError("Truncated protobuf field");
      fields.push({ field, kind: "bytes", value: buffer.subarray(position, position + length) });
      position += length;
    } else if (wireType === wireFixed64) position += 8;
    else if (wireType === wireFixed32) position += 4;
    else throw new RangeError(`Unsupported protobuf wire type ${wireType}`);
  }
  if (position > buffer.length) throw new RangeError("Truncated protobuf field");
  return fields;
}

export function decodeText(bytes: Uint8Array): string {
  return textDecoder.decode(bytes);
}
