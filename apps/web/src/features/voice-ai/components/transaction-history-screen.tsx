import { formatHistoryDate } from '@soundid/contracts';
import { historyText } from '@soundid/contracts/ui-text';
import { type KeyboardEvent, type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '../../../components/page';
import { Pager } from '../../../components/pager';
import { type HistoryTab, useActionHistory, usePurchaseHistory } from '../api/get-history';
import { ReceiptLink } from './receipt-link';
import './transaction-history-screen.css';

const TABS: { id: HistoryTab; name: string }[] = [
  { id: 'purchase', name: historyText.purchaseTab },
  { id: 'usage', name: historyText.usageTab },
];

/** Purchase and usage history of voice AI tokens, each paged on its own (docs/requirements.md §2). */
export function TransactionHistoryScreen() {
  const [tab, setTab] = useState<HistoryTab>('purchase');
  const [pages, setPages] = useState<Record<HistoryTab, number>>({ purchase: 1, usage: 1 });

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = tab === 'purchase' ? 'usage' : 'purchase';
    setTab(next);
    document.getElementById(`history-tab-${next}`)?.focus();
  };

  return (
    <Page
      heading={historyText.heading}
      width="wide"
      actions={
        <div className="page__actions">
          <Link to="/products">{historyText.toProducts}</Link>
          <Link className="button button--primary" to="/products/voice-ai">
            {historyText.buyMore}
          </Link>
        </div>
      }
    >
      <div className="tabs" role="tablist" aria-label={historyText.tabsLabel}>
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`history-tab-${t.id}`}
            type="button"
            role="tab"
            className="tabs__tab"
            aria-selected={tab === t.id}
            aria-controls={`history-panel-${t.id}`}
            tabIndex={tab === t.id ? 0 : -1}
            onClick={() => setTab(t.id)}
            onKeyDown={onTabKey}
          >
            {t.name}
          </button>
        ))}
      </div>
      <div id={`history-panel-${tab}`} role="tabpanel" aria-labelledby={`history-tab-${tab}`} className="card">
        {tab === 'purchase' ? (
          <PurchaseTable page={pages.purchase} onPage={(page) => setPages((p) => ({ ...p, purchase: page }))} />
        ) : (
          <UsageTable page={pages.usage} onPage={(page) => setPages((p) => ({ ...p, usage: page }))} />
        )}
      </div>
    </Page>
  );
}

function PurchaseTable({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const history = usePurchaseHistory(page, true);
  return (
    <HistoryTable
      columns={historyText.purchaseColumns}
      rows={history.data?.PageItems.map((item) => [
        item.TokenAmount.toLocaleString('en-US'),
        item.Type,
        formatHistoryDate(item.OrderDate),
        formatHistoryDate(item.ExpiryDate),
        item.TokenBalance.toLocaleString('en-US'),
        <ReceiptLink key="receipt" url={item.ReceiptUrl} orderDate={formatHistoryDate(item.OrderDate)} />,
      ])}
      isLoading={history.isFetching}
      page={page}
      pageCount={history.data?.PageCount}
      onPage={onPage}
    />
  );
}

function UsageTable({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const history = useActionHistory(page, true);
  return (
    <HistoryTable
      columns={historyText.usageColumns}
      rows={history.data?.PageItems.map((item) => [
        item.TokenAmount.toLocaleString('en-US'),
        item.Type,
        formatHistoryDate(item.Date),
      ])}
      isLoading={history.isFetching}
      page={page}
      pageCount={history.data?.PageCount}
      onPage={onPage}
    />
  );
}

function HistoryTable({
  columns,
  rows,
  isLoading,
  page,
  pageCount,
  onPage,
}: {
  columns: readonly string[];
  rows: ReactNode[][] | undefined;
  isLoading: boolean;
  page: number;
  pageCount: number | undefined;
  onPage: (page: number) => void;
}) {
  return (
    <>
      {isLoading && <p role="status">{historyText.loading}</p>}
      {rows && (
        <div className="table-scroll">
          <table className="history-table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={columns.length}>{historyText.empty}</td>
                </tr>
              ) : (
                rows.map((cells, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: history rows have no id of their own
                  <tr key={index}>
                    {cells.map((cell, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                      <td key={i} data-label={columns[i]}>
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      {pageCount !== undefined && <Pager page={page} pageCount={pageCount} isLoading={isLoading} onPage={onPage} />}
    </>
  );
}
