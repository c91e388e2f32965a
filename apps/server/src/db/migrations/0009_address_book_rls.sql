SELECT enable_tenant_rls('address_book_entries');
