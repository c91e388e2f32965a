SELECT enable_tenant_rls('network_growth');
