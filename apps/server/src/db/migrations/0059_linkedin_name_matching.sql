-- One person's name, however it is written: lower case, accents and punctuation gone, the words in
-- alphabetical order ('Zhang Wei' and 'Wei ZHANG', 'José Pérez' and 'Jose Perez' are one name). Only
-- ever compared among the people of one company (a LinkedIn connection without an address and the
-- person the mail knows there), never to tell people apart across a workspace.
CREATE FUNCTION person_name_key(name text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT nullif(array_to_string(array(
    SELECT word FROM unnest(string_to_array(btrim(regexp_replace(
      translate(lower(name), 'àáâãäåāăąçćčďđèéêëēėęěğìíîïīįıłñńňòóôõöøōőřśšşťùúûüūůűųýÿžźż', 'aaaaaaaaacccddeeeeeeeegiiiiiiilnnnoooooooorssstuuuuuuuuyyzzz'),
      '[^a-z0-9]+', ' ', 'g')), ' ')) AS word
     ORDER BY word), ' '), '')
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION person_name_key(text) TO PUBLIC;
--> statement-breakpoint
-- A domain's first label, hyphens gone: 'kc-collective.com' is 'kccollective', what 'KC Collective'
-- squashes to. The one rule for telling whether a company name is its domain's.
CREATE FUNCTION domain_label(domain text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT replace(split_part(domain, '.', 1), '-', '')
$$;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION domain_label(text) TO PUBLIC;
--> statement-breakpoint
-- A LinkedIn Company column ('Acme Robotics') finds the company of a mail domain (acmerobotics.io).
CREATE INDEX companies_domain_label_idx ON companies (workspace_id, domain_label(domain)) WHERE domain IS NOT NULL;
