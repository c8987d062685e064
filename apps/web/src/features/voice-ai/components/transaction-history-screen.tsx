import { formatHistoryDate } from '@soundid/contracts';
import { historyText } from '@soundid/contracts/ui-text';
import { Fragment, type KeyboardEvent, type ReactNode, useState } from 'react';
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
      columns={[...historyText.purchaseColumns, ...historyText.purchaseMoreColumns]}
      rows={history.data?.PageItems.map((item) => ({
        cells: [
          item.TokenAmount.toLocaleString('en-US'),
          item.Type,
          formatHistoryDate(item.OrderDate),
          item.IsExpired ? (
            <>
              {formatHistoryDate(item.ExpiryDate)} <span className="history-expired">{historyText.expired}</span>
              {item.TokensExpired ? ` (${historyText.expiredUnused(item.TokensExpired)})` : null}
            </>
          ) : (
            formatHistoryDate(item.ExpiryDate)
          ),
          item.TokenBalance.toLocaleString('en-US'),
          item.TokensSpent.toLocaleString('en-US'),
          <ReceiptLink key="receipt" url={item.ReceiptUrl} orderDate={formatHistoryDate(item.OrderDate)} />,
        ],
      }))}
      isLoading={history.isFetching}
      page={page}
      pageCount={history.data?.PageCount}
      onPage={onPage}
    />
  );
}

/** One row per processing job (ADR 0056); its row opens to the lots that paid it. */
function UsageTable({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const history = useActionHistory(page, true);
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (index: number) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(index)) next.add(index);
      return next;
    });
  // A new page starts closed.
  const [shownPage, setShownPage] = useState(page);
  if (shownPage !== page) {
    setShownPage(page);
    setOpen(new Set());
  }
  return (
    <HistoryTable
      columns={[...historyText.usageColumns, ...historyText.usageMoreColumns]}
      rows={history.data?.PageItems.map((item, index) => {
        const detailId = `usage-payers-${page}-${index}`;
        const isOpen = open.has(index);
        return {
          cells: [
            item.TokenAmount.toLocaleString('en-US'),
            item.Type,
            formatHistoryDate(item.Date),
            historyText.seconds(item.Seconds),
            <button
              key="payers"
              type="button"
              className="button button--link button--small"
              aria-expanded={isOpen}
              aria-controls={detailId}
              onClick={() => toggle(index)}
            >
              {isOpen ? historyText.hidePayers : historyText.showPayers(item.Payers.length)}
            </button>,
          ],
          detail: isOpen && (
            <ul id={detailId} className="history-payers" aria-label={historyText.payersLabel}>
              {item.Payers.map((payer, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a job's payers are positional
                <li key={i}>{historyText.payer(payer.Tokens, payer.Type, formatHistoryDate(payer.OrderDate))}</li>
              ))}
            </ul>
          ),
        };
      })}
      isLoading={history.isFetching}
      page={page}
      pageCount={history.data?.PageCount}
      onPage={onPage}
    />
  );
}

interface HistoryRow {
  cells: ReactNode[];
  /** Shown in a row of its own under the row (a job's payers), when present. */
  detail?: ReactNode;
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
  rows: HistoryRow[] | undefined;
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
                rows.map((row, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: history rows have no id of their own
                  <Fragment key={index}>
                    <tr>
                      {row.cells.map((cell, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                        <td key={i} data-label={columns[i]}>
                          {cell}
                        </td>
                      ))}
                    </tr>
                    {row.detail && (
                      <tr className="history-table__detail">
                        <td colSpan={columns.length}>{row.detail}</td>
                      </tr>
                    )}
                  </Fragment>
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
