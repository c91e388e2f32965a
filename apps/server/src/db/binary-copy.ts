import { Writable } from 'node:stream';

// PostgreSQL's binary COPY format (https://www.postgresql.org/docs/current/sql-copy.html, "Binary
// Format"), read tuple by tuple. Cheaper than the text format on both ends for uuids and arrays of
// them: PostgreSQL sends 16 bytes instead of formatting 36 characters, and nothing needs unescaping.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** The signature, the flags field and the header extension's length. */
const HEADER_BYTES = SIGNATURE.length + 8;
const NULL_LENGTH = -1;
const TRAILER = -1;

/** One tuple's fields: field i is buffer[starts[i], starts[i] + lengths[i]), or null when lengths[i] is -1. */
export type Tuple = { buffer: Buffer; starts: Int32Array; lengths: Int32Array };

/** A sink for `COPY ... TO STDOUT (FORMAT binary)` calling `onTuple` for each whole tuple, in order. */
export function binaryCopySink(onTuple: (tuple: Tuple) => void, maxFields = 64): Writable {
  const tuple: Tuple = {
    buffer: Buffer.alloc(0),
    starts: new Int32Array(maxFields),
    lengths: new Int32Array(maxFields),
  };
  let pending: Buffer = Buffer.alloc(0);
  let headerRead = false;
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      const buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let at = 0;
      if (!headerRead) {
        if (buffer.length < HEADER_BYTES) {
          pending = buffer;
          return done();
        }
        if (!buffer.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return done(new Error('not a binary COPY'));
        const extension = buffer.readInt32BE(SIGNATURE.length + 4);
        if (buffer.length < HEADER_BYTES + extension) {
          pending = buffer;
          return done();
        }
        at = HEADER_BYTES + extension;
        headerRead = true;
      }
      tuple.buffer = buffer;
      // A tuple is handed on only once all of it has arrived; the rest waits for the next chunk.
      while (at + 2 <= buffer.length) {
        const fields = buffer.readInt16BE(at);
        if (fields === TRAILER) {
          at += 2;
          break;
        }
        if (fields > maxFields) return done(new Error(`a tuple of ${fields} fields, more than ${maxFields}`));
        let end = at + 2;
        let whole = true;
        for (let field = 0; field < fields; field++) {
          if (end + 4 > buffer.length) {
            whole = false;
            break;
          }
          const length = buffer.readInt32BE(end);
          tuple.starts[field] = end + 4;
          tuple.lengths[field] = length;
          end += 4 + Math.max(length, 0);
        }
        if (!whole || end > buffer.length) break;
        onTuple(tuple);
        at = end;
      }
      // A copy, not a view: a view would keep the whole (concatenated) chunk alive.
      pending = Buffer.from(buffer.subarray(at));
      done();
    },
  });
}

const isNull = (tuple: Tuple, field: number) => tuple.lengths[field] === NULL_LENGTH;

/** An int4 field (cast smaller integers in the query). */
export const int4At = (tuple: Tuple, field: number) => tuple.buffer.readInt32BE(tuple.starts[field] ?? 0);

export const boolAt = (tuple: Tuple, field: number) => tuple.buffer[tuple.starts[field] ?? 0] === 1;

/** A text field, or null. */
export const textAt = (tuple: Tuple, field: number) =>
  isNull(tuple, field)
    ? null
    : tuple.buffer.toString('utf8', tuple.starts[field] ?? 0, (tuple.starts[field] ?? 0) + (tuple.lengths[field] ?? 0));

/** A uuid's 16 bytes at `start`, as PostgreSQL writes it in text: lower-case hex, 8-4-4-4-12. */
export function uuidText(buffer: Buffer, start: number) {
  const hex = buffer.toString('hex', start, start + 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Calls `each` with the start of each element of a one-dimensional uuid[] field (16 bytes each), in
 * order. Null elements are refused: the arrays read here have none.
 */
export function forEachUuidIn(tuple: Tuple, field: number, each: (buffer: Buffer, start: number) => void) {
  const { buffer } = tuple;
  let at = tuple.starts[field] ?? 0;
  const dimensions = buffer.readInt32BE(at);
  if (dimensions === 0) return;
  if (dimensions !== 1) throw new Error(`an array of ${dimensions} dimensions`);
  // The null flag and the element type, then the one dimension's size and lower bound.
  const size = buffer.readInt32BE(at + 12);
  at += 20;
  for (let element = 0; element < size; element++) {
    if (buffer.readInt32BE(at) !== 16) throw new Error('an array element that is not a uuid');
    each(buffer, at + 4);
    at += 20;
  }
}
