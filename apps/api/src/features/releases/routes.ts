import { callPathOf, callSchemas, fileReplies } from '@soundid/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachmentDisposition, DOWNLOAD_FILE_PATH } from '../../integrations/object-storage';
import { navigationTokenOf, type SessionCookie } from '../accounts/session-cookie';
import type { SessionService } from '../accounts/sessions';
import type { ReleaseService } from './service';

export interface ReleaseRoutesOptions {
  releases: ReleaseService;
  sessions: SessionService;
  sessionCookie: SessionCookie;
}

/**
 * The download center's calls (`POST /api/downloads/<Call>`, signed in like every portal call)
 * and the folder storage's download URL (ADR 0046).
 */
export const releaseRoutes: FastifyPluginAsyncZod<ReleaseRoutesOptions> = async (
  app,
  { releases, sessions, sessionCookie },
) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(callPathOf('GetDownloadCenter').path, { schema: callSchemas.GetDownloadCenter }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await releases.downloadCenter(auth.userId));
  });

  app.post(callPathOf('GetDownloadLink').path, { schema: callSchemas.GetDownloadLink }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await releases.issueLink(auth.userId, request.body.releaseFileId));
  });

  /**
   * A folder-storage link: the bytes of the installer, as an attachment, to the customer the
   * link was issued to. The browser follows the link as a navigation, which cannot carry the
   * Software header: here the session cookie counts without it. A forged request gains nothing:
   * the link's signed token names the customer and expires in minutes, and the answer changes
   * nothing (ASVS 3.5.1 guards state changes; this reads).
   */
  app.get(
    DOWNLOAD_FILE_PATH,
    {
      schema: {
        querystring: z.object({ token: z.string().max(1024) }),
        response: fileReplies('application/octet-stream', 'The installer, as an attachment under its file name'),
      },
    },
    async (request, reply) => {
      const session = await sessions.authenticate(navigationTokenOf(request, sessionCookie));
      const download = await releases.openDownload(request.query.token, session.userId);
      // A stream is sent as it is: the response schema only describes it (OpenAPI).
      return (reply as FastifyReply)
        .header('Content-Type', download.contentType)
        .header('Content-Length', String(download.contentLength))
        .header('Content-Disposition', attachmentDisposition(download.fileName))
        .header('Cache-Control', 'private, no-store')
        .send(download.body);
    },
  );
};
