"""The volume service: state machine, service layer, worker manager, drivers."""
