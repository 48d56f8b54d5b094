import type { HTMLAttributes, ReactNode } from 'react';
import styles from './Table.module.css';

export interface TableColumn<Row> {
  key: string;
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** 'end' for amounts and counts: right-aligned, digits of equal width. */
  align?: 'start' | 'end';
  /** The row's name (a `<th scope="row">`): what a screen reader announces with each cell. */
  rowHeader?: boolean;
  /** Classes of this column's cells, e.g. a status colour (a function for one per row). */
  className?: string | ((row: Row) => string | undefined);
  /** The cell's title (a hover text), e.g. why a payout failed. */
  title?: (row: Row) => string | undefined;
}

export interface TableProps<Row> {
  columns: readonly TableColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** Names the table for assistive technology. */
  'aria-label'?: string;
  /** Without it the header row is left out (a two-column list of labels and values). */
  showHeader?: boolean;
  /** Extra attributes of a row (data-* hooks for tests). */
  rowProps?: (row: Row) => HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string>;
  /** Shown instead of the table when there are no rows. */
  empty?: ReactNode;
  className?: string;
}

/** A data table from columns and rows: the kit's one table, so every screen's tables look and read alike. */
export function Table<Row>({ columns, rows, rowKey, showHeader = true, rowProps, empty, className, ...aria }: TableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <p className={styles.empty}>{empty}</p>;
  const cellClass = (column: TableColumn<Row>, row: Row) =>
    [column.align === 'end' ? styles.end : '', typeof column.className === 'function' ? column.className(row) : column.className].filter(Boolean).join(' ') ||
    undefined;
  return (
    <div className={[styles.wrap, className].filter(Boolean).join(' ')}>
      <table className={styles.table} aria-label={aria['aria-label']}>
        {showHeader && (
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.key} scope="col" className={column.align === 'end' ? styles.end : undefined}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) =>
                column.rowHeader ? (
                  <th key={column.key} scope="row" className={cellClass(column, row)} title={column.title?.(row)}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.key} className={cellClass(column, row)} title={column.title?.(row)}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
