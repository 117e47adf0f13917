import { UPLOAD_CHUNK_MAX_CHARS, type Result } from '$contract/index.ts';
import type { Api } from '../lib/bridge.ts';

// The file's text to main, one chunk after another: read in slices of bytes and decoded as a
// stream, so a character split between two slices is decoded whole, and only one slice is held.

// Up to 3 bytes of a character begun in the previous slice are decoded with this one.
const SLICE_BYTES = UPLOAD_CHUNK_MAX_CHARS - 4;

export async function sendFileText(
  api: Api,
  uploadId: string,
  file: File,
  onBytes: (bytes: number) => void,
  isStopped: () => boolean,
): Promise<Result<null>> {
  const decoder = new TextDecoder('utf-8');
  let index = 0;
  for (let start = 0; start < file.size; start += SLICE_BYTES) {
    if (isStopped()) return { ok: false, error: { code: 'cancelled', message: 'The upload was cancelled.' } };
    const bytes = new Uint8Array(await file.slice(start, start + SLICE_BYTES).arrayBuffer());
    const text = decoder.decode(bytes, { stream: start + SLICE_BYTES < file.size });
    const sent = await api.invoke('tables:uploadChunk', { uploadId, index, text });
    if (!sent.ok) return sent;
    index += 1;
    onBytes(Math.min(file.size, start + SLICE_BYTES));
  }
  return { ok: true, data: null };
}
