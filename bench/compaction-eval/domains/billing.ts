import type { Domain } from "../domain";
import { phrases, planted } from "../pools";

const TABLES = ["invoices", "line_items", "payments", "refunds", "credit_notes", "tax_rates"];

export const billing: Domain = {
  key: "billing-migration",
  title: "Moving billing off the monolith",
  system:
    "You are a senior backend engineer helping a small team move their billing code out of a " +
    "Rails monolith on MySQL into a standalone service on PostgreSQL. Be concrete and brief.",
  opener:
    "We're finally splitting billing out of the monolith. It's a Rails app on MySQL 5.7 and " +
    "billing touches about a dozen tables. I'd like to plan the move with you over the next " +
    "few weeks, step by step. Where would you start?",
  slots: {
    table: (r) => r.pick(TABLES),
    service: (r) => r.pick(["invoicing", "ledger", "tax", "dunning", "payouts", "webhooks"]),
    tool: (r) => r.pick(["pgloader", "Debezium", "pt-online-schema-change", "Flyway", "sqlc"]),
  },
  asks: [
    "How should we handle the {table} table during the move?",
    "What's the risk if the {service} job runs twice during cutover?",
    "Can you sketch the order of operations for moving {table}?",
    "Would {tool} help us here, or is it overkill?",
    "{first} asked whether we can keep reading from MySQL for a while. Is that sane?",
    "What should we monitor on {weekday} when the {service} traffic shifts?",
    "How do we test that the {table} totals match between the two databases?",
    "Is there anything about MySQL's implicit casts that will bite us in PostgreSQL?",
    "How would you structure the new service's modules?",
    "What do we tell support while {table} is read-only?",
    "How long would a backfill of {table} take at roughly {nn} thousand rows a minute?",
    "Should the {service} worker be idempotent, and how?",
    "What about time zones in the {table} timestamps?",
    "Can we roll back after the cutover, and up to when?",
    "How do we keep the {service} webhooks from firing twice?",
    "What would you put in the runbook for {weekday}'s rehearsal?",
  ],
  lines: [
    "I would move the {table} table only after its writers are behind a single interface.",
    "The safest order is schema first, then a backfill, then dual reads, and only then the switch.",
    "Idempotency keys on every {service} write make a replayed job harmless.",
    "MySQL will happily compare a string with a number, while PostgreSQL will refuse, so search the queries for those comparisons.",
    "Keep the old code path behind a flag for at least {days} after cutover.",
    "A checksum per day of {table} rows, computed on both sides, catches most drift.",
    "Support should see a banner, not an error page, while writes are paused.",
    "Store every timestamp as UTC with a time zone and convert only at the edges.",
    "{tool} is useful, but only if someone on the team already knows it.",
    "I would rehearse the cutover on a copy of production at least twice.",
    "The {service} module should own its tables and expose nothing but its API.",
    "Batch the backfill in chunks of a few thousand rows and commit between them.",
    "Watch replication lag, error rates and the queue depth of the {service} worker.",
    "A rollback is cheap until the first write lands only in the new database.",
    "Foreign keys that cross the billing boundary will have to become API calls.",
    "It is worth writing down which team owns each table before anyone moves it.",
    "Decimal columns must keep their scale, or rounding differences will show up in totals.",
    "I would log every mismatch instead of failing the request during the dual-read phase.",
    "The webhooks should carry an event id so receivers can drop duplicates.",
    "A dry run on {weekday} gives everyone the weekend as a buffer.",
    "Expect the first backfill to be slower than the estimate; indexes are the usual reason.",
    "Keep the MySQL binlog retention long enough to replay the whole cutover window.",
    "The {table} table has the most readers, so it should move last.",
    "A read-only mode in the admin screens buys a lot of calm during the switch.",
    "Nothing about this needs a big-bang weekend if each table moves on its own.",
  ],
  plants: [
    {
      kind: "fact",
      by: "user",
      say: "Our contact at the payment processor is {value}; she signs off on anything that changes webhook URLs.",
      value: planted.person,
      question:
        "Who is our contact at the payment processor, the one who signs off on webhook URL changes?",
    },
    {
      kind: "fact",
      by: "user",
      say: "Finance says the monthly invoice run must finish within {value}, otherwise the statements go out late.",
      value: planted.measure("minutes", 21, 95),
      question: "Within how long must the monthly invoice run finish, according to finance?",
    },
    {
      kind: "fact",
      by: "assistant",
      lead: "How big is the invoices table now, roughly, from the numbers I pasted?",
      say: "From the figures you pasted, the invoices table holds about {value} rows, so a naive copy would take most of a day.",
      value: (r) => `${r.int(11, 98)}.${r.int(1, 9)} million`,
      question:
        "About how many rows does the invoices table hold, from the figures the user pasted?",
    },
    {
      kind: "fact",
      by: "user",
      say: "The hard deadline is {value}, when the old MySQL hosts are decommissioned.",
      value: planted.date,
      question: "What is the hard deadline, when the old MySQL hosts are decommissioned?",
    },
    {
      kind: "fact",
      by: "user",
      say: "The p95 latency budget for the invoice API is {value}.",
      value: planted.measure("ms"),
      question: "What is the p95 latency budget for the invoice API?",
    },
    {
      kind: "artifact",
      by: "assistant",
      lead: "Can you write the first migration for the new invoices schema?",
      say: "I put the migration in {value}; it creates the invoices table with decimal amounts and a unique idempotency key.",
      value: (r) =>
        `db/migrate/20${r.int(24, 26)}0${r.int(1, 9)}${r.int(10, 28)}_create_invoices_${r.pick(["v2", "split", "pg"])}.sql`,
      question: "Which file holds the migration that creates the new invoices table?",
    },
    {
      kind: "artifact",
      by: "assistant",
      lead: "What should the feature flag for dual reads be called?",
      say: "Let's call the flag {value} so it sorts next to the other billing flags.",
      value: (r) =>
        `billing.${r.pick(["dual_read", "pg_reads", "shadow_read"])}_${r.pick(["invoices", "ledger", "totals"])}_v${r.int(2, 9)}`,
      question: "What is the name of the feature flag for dual reads?",
    },
    {
      kind: "artifact",
      by: "user",
      say: "The drift dashboard is at {value} if you want to reference it.",
      value: (r) =>
        `https://grafana.internal.example.com/d/${r.pick(["bill", "inv", "pay"])}${r.int(100, 999)}/billing-drift`,
      question: "What is the URL of the billing drift dashboard?",
    },
    {
      kind: "artifact",
      by: "user",
      say: "I opened ticket {value} to track the cutover checklist.",
      value: planted.ticket("BILL"),
      question: "Which ticket tracks the cutover checklist?",
    },
    {
      kind: "decision",
      by: "user",
      say: "OK, decided: we'll copy the data with {value} instead of writing to both databases from the app.",
      ...phrases([
        ["logical replication", "logical replication"],
        ["change data capture", "change data capture"],
        ["nightly snapshot imports", "snapshot imports"],
      ]),
      question: "How did we decide to copy the data from MySQL to PostgreSQL?",
      revise: {
        say: "Change of plan on copying the data: we're going with {value} after all, the ops team vetoed the other option.",
        value: (r) =>
          r.pick(["a one-off export over a maintenance window", "trigger-based shadow tables"]),
        keys: (v) => [v.startsWith("a one-off") ? "one-off export" : "shadow tables"],
      },
    },
    {
      kind: "decision",
      by: "assistant",
      lead: "Money as floats, integers or decimals in the new service?",
      say: "Then we settle it: amounts are stored as {value}, and conversion happens only at the API edge.",
      ...phrases([
        ["integer cents", "integer cents"],
        ["numeric(12,2) decimals", "numeric(12,2)"],
        ["minor units in bigint", "minor units"],
      ]),
      question: "How did we decide to store money amounts in the new service?",
    },
    {
      kind: "decision",
      by: "user",
      say: "We agreed with the team that cutover happens on a {value}, never on a Friday.",
      value: (r) => r.pick(["Tuesday morning", "Wednesday evening", "Sunday night"]),
      question: "On what day and time of day did the team agree the cutover happens?",
    },
    {
      kind: "pending",
      by: "user",
      say: "One more thing for later: I still need you to {value}. We haven't done it yet, so keep it on the list.",
      ...phrases([
        ["draft the rollback runbook for the on-call team", "rollback runbook"],
        ["write the reconciliation query for refunds", "reconciliation query"],
        ["list every report that reads the tax_rates table", "tax_rates"],
      ]),
      question: "What did the user ask to keep on the list for later that has still not been done?",
    },
    {
      kind: "pending",
      by: "user",
      say: "Before we finish, remind me to {value}.",
      ...phrases([
        ["email the auditors about the new ledger tables", "auditors"],
        ["rotate the MySQL replication password", "replication password"],
        ["ask legal whether invoice PDFs must be re-issued", "invoice PDFs"],
      ]),
      question: "What did the user ask to be reminded to do before finishing?",
    },
  ],
};
