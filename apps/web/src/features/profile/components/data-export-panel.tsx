import type { DataExport } from '@soundid/contracts';
import { dataExportText as t } from '@soundid/contracts/ui-text';
import { Button } from '../../../components/button';
import { notify } from '../../../lib/notifications';
import { saveTextFile } from '../../../lib/save-text-file';
import { useExportMyData } from '../api/data-export';
import { dataExportPage } from '../lib/data-export-page';
import './data-export-panel.css';

type Form = 'json' | 'page';

/**
 * "Download my data" (ADR 0038): the export is fetched once, then saved as JSON or as a readable
 * page made here from it; a second download of the other form needs no second export.
 */
export function DataExportPanel() {
  const exportMyData = useExportMyData();

  const save = (data: DataExport, form: Form) => {
    const day = data.ExportedAt.slice(0, 10);
    if (form === 'json') saveTextFile(t.jsonFileName(day), `${JSON.stringify(data, null, 2)}\n`);
    else saveTextFile(t.pageFileName(day), dataExportPage(data), 'text/html');
    notify('success', t.downloaded);
  };
  const download = (form: Form) => {
    if (exportMyData.data) save(exportMyData.data, form);
    else exportMyData.mutate(undefined, { onSuccess: (data) => save(data, form) });
  };

  return (
    <section className="card data-export" aria-labelledby="data-export-heading">
      <h2 id="data-export-heading" className="data-export__heading">
        {t.heading}
      </h2>
      <p>{t.intro}</p>
      <div className="form__actions">
        <Button
          variant="secondary"
          isBusy={exportMyData.isPending}
          disabled={exportMyData.isPending}
          onClick={() => download('json')}
        >
          {t.downloadJson}
        </Button>
        <Button variant="secondary" disabled={exportMyData.isPending} onClick={() => download('page')}>
          {t.downloadPage}
        </Button>
      </div>
    </section>
  );
}
