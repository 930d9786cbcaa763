-- How to reach a customer, for the lists of the things made for it (invoices, links, transactions, subscriptions).
CREATE VIEW customer_contacts AS
  SELECT id, merchant_id, first_name, last_name, company_name, email, mobile_phone_number FROM customers;
