SELECT enable_tenant_rls('actions');
