-- The people who signed in on a device (the API's `userProfiles`): dashboard users who signed in through the
-- dashboard's sign-in page opened by the device's app (`?device=<deviceId>`). A copy of the profile as it was at
-- sign-in, so the devices module reads no other module's tables.
CREATE TABLE device_users (
  merchant_id uuid NOT NULL,
  device_id text NOT NULL,
  user_id uuid NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  email text NOT NULL,
  signed_in_at timestamptz NOT NULL,
  PRIMARY KEY (merchant_id, device_id, user_id),
  FOREIGN KEY (merchant_id, device_id) REFERENCES devices (merchant_id, device_id)
);
