/**
 * Small I/O helpers every module shares; they live in the lowest module (fabric) so that all can use them.
 */
package io.mpirunj.io;
