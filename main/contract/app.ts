import { z } from 'zod';
import { externalUrl } from '../common/external-url.ts';

// The app's channels: links handed to the system's browser.

export const appChannels = {
  /**
   * Opens an https link (a block explorer's page) in the system's browser. `opened` is false where
   * the host has no browser of its own to hand it to (the browser host): the page opens it itself.
   */
  'app:openUrl': {
    request: z
      .object({
        url: z
          .string()
          .max(4000)
          .refine((url) => externalUrl(url) !== null, { message: 'url must be an https address without a user name or password' }),
      })
      .strict(),
    response: z.object({ opened: z.boolean() }),
  },
} as const;
