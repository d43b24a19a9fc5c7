package io.axscheduler.deploy.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The module and package rules of docs/architecture.md, checked on the production classes of every module: the sides
 * talk only through api's messages, api is a contract without Spring or Axon's runtime, Axon's internals are reached
 * only from the axon-mysql engine module, and no two packages depend on each other.
 */
class ArchitectureTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.axscheduler");
    }

    @Test
    void the_command_side_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.command..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.query..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    /** The console reads through the query side and acts through the API's commands, never through another side. */
    @Test
    void the_console_imports_neither_the_command_side_nor_the_scheduler() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.console..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void the_query_side_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.query..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.scheduler..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void the_scheduler_saga_imports_neither_other_side() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.scheduler..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.axscheduler.command..", "io.axscheduler.query..", "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void api_is_a_contract_without_spring_and_without_the_modules_built_on_it() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.api..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.springframework..",
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..",
                        "io.axscheduler.axonmysql..",
                        "io.axscheduler.worker..")
                .check(classes);
    }

    @Test
    void the_worker_library_needs_only_the_contract() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.worker..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..",
                        "io.axscheduler.axonmysql..",
                        "org.axonframework..")
                .check(classes);
    }

    @Test
    void api_uses_no_axon_class_but_its_routing_annotation() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.api..")
                .should()
                .dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                        "Axon classes other than @TargetAggregateIdentifier",
                        (com.tngtech.archunit.core.domain.JavaClass c) -> c.getPackageName()
                                        .startsWith("org.axonframework")
                                && !c.getName()
                                        .equals("org.axonframework.modelling.command.TargetAggregateIdentifier")))
                .check(classes);
    }

    @Test
    void only_the_engine_module_reaches_into_axon_processor_batches_or_private_members() {
        noClasses()
                .that()
                .resideOutsideOfPackage("io.axscheduler.axonmysql..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("org.axonframework.messaging.unitofwork.BatchingUnitOfWork")
                .orShould()
                .callMethod(java.lang.reflect.Field.class, "setAccessible", boolean.class)
                .orShould()
                .callMethod(java.lang.reflect.Method.class, "setAccessible", boolean.class)
                .check(classes);
    }

    @Test
    void the_engine_module_knows_nothing_of_the_scheduler() {
        noClasses()
                .that()
                .resideInAPackage("io.axscheduler.axonmysql..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "io.axscheduler.command..",
                        "io.axscheduler.query..",
                        "io.axscheduler.scheduler..",
                        "io.axscheduler.deploy..")
                .check(classes);
    }

    @Test
    void no_package_cycles_between_the_modules() {
        slices().matching("io.axscheduler.(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void no_package_cycles_between_the_stages_of_the_scheduler() {
        slices().matching("io.axscheduler.scheduler.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void no_package_cycles_inside_the_sides() {
        slices().matching("io.axscheduler.command.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
        slices().matching("io.axscheduler.query.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
        slices().matching("io.axscheduler.axonmysql.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }
}
