import {
  type AdminRelease,
  formatFileSize,
  RELEASE_FILE_EXTENSIONS,
  RELEASE_NOTES_MAX_LENGTH,
  RELEASE_PLATFORM_NAMES,
  RELEASE_PLATFORMS,
  RELEASE_VERSION_MAX_LENGTH,
} from '@soundid/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { ActionDialog } from '../components/action-dialog';
import { Done, FaultMessage } from '../components/fault-message';
import { ProductSelect } from '../components/product-select';
import { ReasonField } from '../components/reason-field';
import { Screen, Section } from '../components/screen';
import { Table } from '../components/table';
import { get, post, postForm } from '../lib/api';
import { fieldText } from '../lib/form';
import { formatTime } from '../lib/format';
import { useCan } from '../lib/session';

const RELEASES = ['AdminReleases'] as const;

/** The download center's releases (ADR 0046): every operator sees them, an admin publishes and removes. */
export function ReleasesScreen() {
  const can = useCan();
  const client = useQueryClient();
  const [done, setDone] = useState<string>();
  const releases = useQuery({ queryKey: RELEASES, queryFn: () => get('AdminReleases') });
  const report = (message: string) => {
    setDone(message);
    void client.invalidateQueries({ queryKey: RELEASES });
  };
  return (
    <Screen title="Releases">
      {can('AdminUploadRelease') && <Upload report={report} />}
      <Section title="Published" id="published">
        {done && <Done>{done}</Done>}
        <FaultMessage error={releases.error} />
        {releases.data && (
          <Table
            empty="No release is published."
            head={[
              'Product',
              'Platform',
              'Version',
              'File',
              'Size',
              'SHA-256',
              'Published',
              ...(can('AdminRemoveRelease') ? [''] : []),
            ]}
          >
            {releases.data.map((release) => (
              <tr key={release.ReleaseFileId}>
                <th scope="row">{release.Product}</th>
                <td>{RELEASE_PLATFORM_NAMES[release.Platform]}</td>
                <td>
                  {release.Version}
                  {release.IsLatest && <span className="badge">latest</span>}
                </td>
                <td>{release.FileName}</td>
                <td className="number">{formatFileSize(release.SizeBytes)}</td>
                <td>
                  <code className="hash" title={release.Sha256}>
                    {release.Sha256.slice(0, 12)}…
                  </code>
                </td>
                <td>{formatTime(release.PublishedAt)}</td>
                {can('AdminRemoveRelease') && (
                  <td>
                    <Remove release={release} report={report} />
                  </td>
                )}
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </Screen>
  );
}

function Remove({ release, report }: { release: AdminRelease; report: (message: string) => void }) {
  const name = `${release.Product} ${release.Version} (${RELEASE_PLATFORM_NAMES[release.Platform]})`;
  return (
    <ActionDialog
      label="Remove"
      buttonName={`Remove ${name}`}
      title={`Remove ${name}`}
      description="No new download link is given for it, and its file is deleted."
      confirm="Remove"
      danger
      run={({ reason }) => post('AdminRemoveRelease', { releaseFileId: release.ReleaseFileId, reason })}
      onDone={(r) => report(r.Removed ? `${name} removed.` : `${name} was already removed.`)}
    />
  );
}

function Upload({ report }: { report: (message: string) => void }) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const products = useQuery({ queryKey: ['AdminProducts'], queryFn: () => get('AdminProducts') });
  const upload = useMutation({
    mutationFn: (form: FormData) => postForm('AdminUploadRelease', form),
    onSuccess: (release) => {
      formRef.current?.reset();
      report(`${release.Product} ${release.Version} (${RELEASE_PLATFORM_NAMES[release.Platform]}) published.`);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = new FormData(event.currentTarget);
    // The service reads the fields before the file (releaseUploadFieldsSchema): the file goes last.
    const body = new FormData();
    for (const field of ['product', 'platform', 'version', 'notes', 'reason']) {
      body.append(field, fieldText(values, field));
    }
    const file = fileInput.current?.files?.[0];
    if (file) body.append('file', file, file.name);
    upload.mutate(body);
  };
  const extensions = [...new Set(Object.values(RELEASE_FILE_EXTENSIONS).flat())].join(',');
  return (
    <Section title="Publish a release" id="upload">
      <form ref={formRef} onSubmit={submit} className="stack" noValidate>
        <ProductSelect products={products.data ?? []} />
        <label htmlFor={`${id}-platform`}>Platform</label>
        <select id={`${id}-platform`} name="platform" required>
          {RELEASE_PLATFORMS.map((platform) => (
            <option key={platform} value={platform}>
              {RELEASE_PLATFORM_NAMES[platform]} ({RELEASE_FILE_EXTENSIONS[platform].join(', ')})
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-version`}>Version</label>
        <input
          id={`${id}-version`}
          name="version"
          required
          maxLength={RELEASE_VERSION_MAX_LENGTH}
          placeholder="5.2.0"
          aria-describedby={`${id}-version-hint`}
        />
        <p id={`${id}-version-hint`} className="hint">
          A semantic version: 5.2.0, 6.0.0-beta.1. Published once per product and platform.
        </p>
        <label htmlFor={`${id}-notes`}>Release notes</label>
        <textarea id={`${id}-notes`} name="notes" rows={4} required maxLength={RELEASE_NOTES_MAX_LENGTH} />
        <label htmlFor={`${id}-file`}>Installer</label>
        <input ref={fileInput} id={`${id}-file`} name="file" type="file" accept={extensions} required />
        <ReasonField />
        <FaultMessage error={upload.error ?? products.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={upload.isPending}>
            {upload.isPending ? 'Uploading…' : 'Publish'}
          </button>
        </div>
      </form>
    </Section>
  );
}
