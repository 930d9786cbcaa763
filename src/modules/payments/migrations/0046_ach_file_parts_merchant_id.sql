-- Every row of a tenant carries its merchant id (docs/performance.md, "Beyond one PostgreSQL"): a file's parts name
-- the merchant of their file, so they can live on the merchant's shard beside it.
ALTER TABLE ach_file_parts ADD COLUMN merchant_id uuid;
UPDATE ach_file_parts p SET merchant_id = f.merchant_id FROM ach_files f WHERE f.id = p.file_id;
ALTER TABLE ach_file_parts ALTER COLUMN merchant_id SET NOT NULL;
