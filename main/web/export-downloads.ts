import type { IncomingMessage, ServerResponse } from 'node:http';
import { EXPORT_FORMATS, type ExportFormat } from '../contract/index.ts';
import type { ExportDestinations, ExportTarget } from '../core/export/destination.ts';
import { tokenMatches } from './access-token.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

// Exports in the browser host arrive as downloads: `results:export` answers a URL,
// GET /export/<exportId>?token=<token>, which the page opens; the file is then streamed into that
// response as it is produced. Each URL is good for one download, for a limited time, and only
// with the host's token.

export const EXPORT_PATH = '/export/';
const UNCLAIMED_MS = 10 * 60_000;

interface Pending {
  fileName: string;
  format: ExportFormat;
  claim(response: ServerResponse): void;
}

export interface ExportDownloads {
  destinations: ExportDestinations;
  /** Answers the request when it is for an export; false when it is not one. */
  handle(request: IncomingMessage, url: URL, response: ServerResponse): boolean;
}

export function createExportDownloads(token: string): ExportDownloads {
  const pending = new Map<string, Pending>();

  function target(exportId: string, fileName: string, format: ExportFormat): ExportTarget {
    let response: ServerResponse | null = null;
    const opened = new Promise<ServerResponse>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(exportId);
        reject(new Error('The download was not opened in time.'));
      }, UNCLAIMED_MS);
      timer.unref();
      pending.set(exportId, {
        fileName,
        format,
        claim(claimed) {
          clearTimeout(timer);
          pending.delete(exportId);
          response = claimed;
          resolve(claimed);
        },
      });
    });
    // nobody may be waiting yet; the export's own open() reports the refusal
    opened.catch(() => undefined);
    return {
      delivery: { kind: 'download', url: `${EXPORT_PATH}${encodeURIComponent(exportId)}?token=${encodeURIComponent(token)}` },
      open: () => opened,
      finish: async () => undefined,
      discard: async () => {
        pending.delete(exportId);
        // the browser then shows the download as failed instead of a short file
        response?.destroy();
      },
    };
  }

  return {
    destinations: { choose: async (exportId, fileName, format) => target(exportId, fileName, format) },
    handle(request, url, response) {
      if (!url.pathname.startsWith(EXPORT_PATH)) return false;
      const reply = (status: number, text: string) =>
        response
          .writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
          .end(text);
      if (request.method !== 'GET') reply(405, 'Method not allowed');
      else if (!tokenMatches(token, url.searchParams.get('token')))
        reply(401, 'This download belongs to the app window that asked for it; export again from there.');
      else {
        const exportId = decodedOrNull(url.pathname.slice(EXPORT_PATH.length));
        const waiting = exportId === null ? undefined : pending.get(exportId);
        if (exportId === null) reply(400, 'This address names no export; export again from the app.');
        else if (waiting === undefined)
          reply(404, 'This export was downloaded already, or the app was restarted since; export again from the app.');
        else {
          response.writeHead(200, {
            ...SECURITY_HEADERS,
            'Content-Type': EXPORT_FORMATS[waiting.format].mediaType,
            'Content-Disposition': contentDisposition(waiting.fileName),
            'Cache-Control': 'no-store',
          });
          waiting.claim(response);
        }
      }
      return true;
    },
  };
}

function decodedOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** An ASCII fallback name and the exact name in RFC 5987 form, so any browser saves it sensibly. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
