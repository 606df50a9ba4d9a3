/** Every line `npm run lesson -- examples` prints on PGlite, in order: the lesson's promise, checked by the runner and the CLI tests. */
export const exampleLines: readonly string[] = [
  '4.1 inbox claims: notice-amber=fresh, notice-birch=fresh, notice-amber=conflict',
  '4.1 check then insert, one worker at a time: notice-amber=inserted, notice-birch=inserted, notice-amber=skipped',
  '4.2 snapshots: ids=snapshot-elm-01,snapshot-elm-02 claims=fresh,fresh balance=930',
  '4.3 rollback: fresh-worker-before inbox=0 effects=0; retry=applied; after inbox=1 effects=1',
  '4.4 effect identity: source-maple-a=fresh/new, source-maple-b=fresh/already-recorded; inbox=2 effects=1',
  '4.4 keyed by message: source-maple-a=fresh/new, source-maple-b=fresh/new; inbox=2 effects=2',
  '4.5 late replay of reconcile-17: per-worker claim B=applied balance=700; snapshot claim B=skipped balance=900; sequence guard B=skipped balance=900',
  '4.5 reconcile-17 first arrives after reconcile-18: snapshot claim B=applied balance=700; sequence guard B=skipped balance=900',
  '4.6 check, credit, record, on a pool: A=credited, B=credited; inbox=1 effects=2',
  '4.6 claim first, one transaction: A=credited, B=skipped; inbox=1 effects=1',
  '4.6 A dies after its credit, then B: check, credit, record A=died after statement 2 B=credited inbox=1 effects=2; claim first A=died after statement 2 B=credited inbox=1 effects=1',
  '4.7 set in memory: A=credited, A=skipped, A restarted=credited, B=credited; inbox=0 effects=3',
  '4.7 inbox claim: A=credited, A=skipped, A restarted=skipped, B=skipped; inbox=1 effects=1',
  '4.8 claim, inbox with no unique key: A=credited, B=credited; inbox=2 effects=2',
  '4.8 claim, inbox with PRIMARY KEY (message_id): A=credited, B=skipped; inbox=1 effects=1',
];
