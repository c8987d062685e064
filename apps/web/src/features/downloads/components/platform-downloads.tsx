import {
  type DownloadCenterProduct,
  formatFileSize,
  RELEASE_PLATFORM_NAMES,
  type ReleaseFile,
} from '@soundid/contracts';
import { downloadsText } from '@soundid/contracts/ui-text';
import { Button } from '../../../components/button';
import { leaveTo } from '../../../lib/browser-location';
import { notify } from '../../../lib/notifications';
import { useDownloadLink } from '../api/get-download-link';

const text = downloadsText;

type Platform = DownloadCenterProduct['Platforms'][number];

/** One platform of a product: its latest installer, then the older versions, folded. */
export function PlatformDownloads({ platform }: { platform: Platform }) {
  return (
    <div className="download-platform">
      <h3 className="download-platform__heading">{RELEASE_PLATFORM_NAMES[platform.Platform]}</h3>
      <ReleaseFileView file={platform.Latest} isLatest />
      {platform.Older.length > 0 && (
        <details className="download-platform__older">
          <summary>{text.olderVersions(platform.Older.length)}</summary>
          <ul className="download-platform__older-list">
            {platform.Older.map((file) => (
              <li key={file.ReleaseFileId}>
                <ReleaseFileView file={file} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

const publishedDate = (ms: number) =>
  new Date(ms).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** An installer: version, date, size, checksum and notes, and its Download button. */
function ReleaseFileView({ file, isLatest = false }: { file: ReleaseFile; isLatest?: boolean }) {
  const link = useDownloadLink();
  const download = () =>
    link.mutate(file.ReleaseFileId, {
      onSuccess: (answer) => {
        notify('success', text.starting(answer.FileName));
        // An attachment: the browser saves it and the page stays.
        leaveTo(answer.Url);
      },
    });
  return (
    <article className="release-file" aria-label={`${file.FileName}, ${text.version(file.Version)}`}>
      <div className="release-file__head">
        <p className="release-file__version">
          <strong>{text.version(file.Version)}</strong>
          {isLatest && <span className="release-file__badge">{text.latest}</span>}
        </p>
        <Button
          className="button--small"
          isBusy={link.isPending}
          disabled={link.isPending}
          aria-label={text.downloadLabel(file.FileName)}
          onClick={download}
        >
          {text.download}
        </Button>
      </div>
      <dl className="release-file__facts">
        <div>
          <dt className="visually-hidden">{text.published('')}</dt>
          <dd>{text.published(publishedDate(file.PublishedAt))}</dd>
        </div>
        <div>
          <dt>{text.file}</dt>
          <dd>
            {file.FileName}, {formatFileSize(file.SizeBytes)}
          </dd>
        </div>
        <div>
          <dt>{text.checksum}</dt>
          <dd>
            <code className="release-file__checksum" title={text.checksumHint}>
              {file.Sha256}
            </code>
          </dd>
        </div>
      </dl>
      <div className="release-file__notes">
        <h4 className="visually-hidden">{text.notes}</h4>
        <p>{file.Notes}</p>
      </div>
    </article>
  );
}
