/* placeholder until the suite is written */
int main(void) { return 0; }
