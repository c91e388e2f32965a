SELECT enable_tenant_rls('recommendation_log');
