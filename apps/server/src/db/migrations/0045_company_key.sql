-- One company name, however it is written: lower case, accents and punctuation gone, legal forms
-- ('Inc', 'GmbH', 'S.A.', ...) dropped from the end. 'Société Générale S.A.' and 'societe generale'
-- are one company. The one rule for matching companies by name (LinkedIn's Company column, imports).
CREATE FUNCTION company_key(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT nullif(btrim(regexp_replace(
    ' ' || btrim(regexp_replace(translate(replace(lower(name), '.', ''), 'àáâãäåāăąçćčďđèéêëēėęěğìíîïīįıłñńňòóôõöøōőřśšşťùúûüūůűųýÿžźż', 'aaaaaaaaacccddeeeeeeeegiiiiiiilnnnoooooooorssstuuuuuuuuyyzzz'), '[^a-z0-9]+', ' ', 'g')),
    '(\s(inc|incorporated|llc|llp|lp|ltd|limited|plc|corp|corporation|co|company|gmbh|ag|sa|sas|sarl|bv|nv|srl|spa|oy|ab|as|kk|pty))+$',
    '', 'g')), '')
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION company_key(text) TO PUBLIC;
--> statement-breakpoint
CREATE INDEX companies_name_key_idx ON companies (workspace_id, company_key(name));
--> statement-breakpoint
-- A company known by name only is created once per name, whoever uploads it first.
CREATE UNIQUE INDEX companies_nameless_key ON companies (workspace_id, company_key(name)) WHERE domain IS NULL;
--> statement-breakpoint
CREATE INDEX job_changes_person_idx ON job_changes (workspace_id, person_id);
--> statement-breakpoint
SELECT enable_tenant_rls('job_changes');
