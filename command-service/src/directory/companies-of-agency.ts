import type pg from "pg";

/**
 * The live companies of a partner, oldest first, from the event log itself: a company registered a moment ago is
 * there even while the directory projection lags, and one deleted is not (README, "what a command may read").
 * Read where a decision guards money or access: deleting a partner (each company's balance) and inviting its
 * supervisor (the companies they sell for). A scan of the company streams: both commands are rare.
 */
export async function companiesOfAgency(pool: pg.Pool, agencyId: string): Promise<string[]> {
  const { rows } = await pool.query<{ stream_id: string }>(
    `SELECT e.stream_id FROM es.streams s
       JOIN es.events e ON e.stream_id = s.stream_id AND e.event_type = 'CompanyRegistered'
      WHERE s.stream_type = 'company' AND e.data->>'agency_id' = $1
        AND NOT EXISTS (SELECT FROM es.events d WHERE d.stream_id = s.stream_id AND d.event_type = 'CompanyDeleted')
      ORDER BY e.global_position`,
    [agencyId],
  );
  return rows.map((row) => row.stream_id.slice("company-".length));
}
