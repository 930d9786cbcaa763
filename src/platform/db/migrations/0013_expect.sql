-- An assertion usable inside one statement: raises SQLSTATE TS409 when `condition` is not true. A compare-and-set
-- written as `WITH u AS (UPDATE ... RETURNING 1) SELECT expect((SELECT count(*) FROM u) = 1, '...')` fails the
-- statement, and with it the rest of a pipelined transaction, when the row was not in the expected state.
CREATE FUNCTION expect(condition boolean, message text) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
  IF condition IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'TS409', MESSAGE = message;
  END IF;
  RETURN true;
END
$$;
