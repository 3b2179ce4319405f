import type { ReactNode } from "react";
import styles from "./account.module.css";

/**
 * A table of the account pages: scrolls sideways if it must on a wide screen, and on a phone
 * shows each row as a labelled card (account.module.css). Its roles are stated, as
 * `display: block` drops a table's semantics in some browsers. A column named `hidden:…` has
 * a header read but not shown (an actions column).
 */
export function DataTable({
  label,
  columns,
  children,
}: {
  readonly label: string;
  readonly columns: readonly string[];
  readonly children: ReactNode;
}) {
  return (
    <div className={styles.tableScroll} tabIndex={0} role="region" aria-label={label}>
      <table className={styles.dataTable} role="table">
        <thead role="rowgroup">
          <tr role="row">
            {columns.map((name) => (
              <th key={name} scope="col" role="columnheader">
                {name.startsWith("hidden:") ? (
                  <span className="visually-hidden">{name.slice("hidden:".length)}</span>
                ) : (
                  name
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">{children}</tbody>
      </table>
    </div>
  );
}

/** A row of a {@link DataTable}. */
export function Row({ children }: { readonly children: ReactNode }) {
  return <tr role="row">{children}</tr>;
}

/**
 * A cell of a {@link DataTable}: `label` (its column's name) is shown beside the value on a
 * phone; a cell without one holds the row's actions.
 */
export function Cell({
  label,
  children,
}: {
  readonly label?: string;
  readonly children: ReactNode;
}) {
  return label === undefined ? (
    <td role="cell" className={styles.actionCell}>
      {children}
    </td>
  ) : (
    <td role="cell" data-label={label}>
      {children}
    </td>
  );
}
